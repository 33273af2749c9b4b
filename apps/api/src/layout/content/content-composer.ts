import { Injectable } from '@nestjs/common';
import {
  type ContentStyle,
  type ContentType,
  DEFAULT_CONTENT_STYLE,
  DEFAULT_QUOTE_CURRENCY,
  inferVideoProvider,
  isObjectValue,
} from '@layout/contracts';
import { type ContentData, type ContentRecord, type ContentWrite } from '../layout.records';
import { definedMembers } from './defined-members';
import { plainJsonOf } from './plain-json';
import { sanitizeTextHtml } from './html-sanitizer';

/** A validated content body: create, update, or one element of a column's `contents`. */
export interface ContentInput {
  type: ContentType;
  style?: Partial<ContentStyle>;
  data?: object;
}

/** A body with the work done that needs no stored state: what it gives, complete and clean. */
export interface PreparedContent {
  type: ContentType;
  style?: ContentStyle;
  data?: ContentData;
}

/**
 * The content rules that validation alone cannot express: a stored style always has all five
 * members, text HTML is sanitised, a video's provider is inferred from its URL, a quote's
 * options name their currency (the default when left out), and on update the members left out
 * keep their value — except `data`, which resets when the type changes.
 */
@Injectable()
export class ContentComposer {
  compose(input: ContentInput, current?: ContentRecord): Omit<ContentWrite, 'id'> {
    return this.merge(this.prepare(input), current);
  }

  /**
   * Everything that needs no stored state (sanitising HTML costs the most): done before a write
   * locks its project, so that the lock is not held for it.
   */
  prepare(input: ContentInput): PreparedContent {
    return {
      type: input.type,
      style:
        input.style === undefined
          ? undefined
          : { ...DEFAULT_CONTENT_STYLE, ...definedMembers(input.style) },
      data: input.data === undefined ? undefined : this.normaliseData(input.type, input.data),
    };
  }

  /** The content a prepared body makes of the stored one (none for a new content). */
  merge(prepared: PreparedContent, current?: ContentRecord): Omit<ContentWrite, 'id'> {
    const style = prepared.style ?? current?.style ?? { ...DEFAULT_CONTENT_STYLE };
    let data: ContentData;
    if (prepared.data !== undefined) data = prepared.data;
    else if (current && current.type === prepared.type) data = current.data;
    else data = {};
    return { type: prepared.type, style, data };
  }

  private normaliseData(type: ContentType, data: object): ContentData {
    // Exhaustive over ContentType: the compiler and the linter reject a missing case.
    const plain = plainJsonOf(data) as ContentData;
    switch (type) {
      case 'text':
        if (typeof plain.html === 'string') plain.html = sanitizeTextHtml(plain.html);
        return plain;
      case 'video':
        if (typeof plain.url === 'string' && plain.provider === undefined) {
          plain.provider = inferVideoProvider(plain.url);
        }
        return plain;
      case 'quote':
        if (isObjectValue(plain.options) && plain.options.currency === undefined) {
          plain.options = { ...plain.options, currency: DEFAULT_QUOTE_CURRENCY };
        }
        return plain;
      case 'empty':
      case 'image':
        return plain;
    }
  }
}
