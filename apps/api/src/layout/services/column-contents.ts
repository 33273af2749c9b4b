import { Injectable } from '@nestjs/common';
import { isDeepStrictEqual } from 'node:util';
import { type ColumnContentDto, CONTENTS_PER_COLUMN_MAX } from '@layout/contracts';
import { RequestValidationError } from '../../common/errors';
import { ContentComposer, type PreparedContent } from '../content/content-composer';
import { type ContentRecord, type ContentWrite } from '../layout.records';
import { assertContentData, assertWithinCount } from './tree-limits';

/** An element of a column's `contents`, prepared: its `_id`, if any, and its own members. */
export interface PreparedElement {
  id: string | undefined;
  prepared: PreparedContent;
}

/**
 * A column's `contents`, given on a create or an update: its complete new list. An element with
 * the `_id` of one of the column's contents updates that content (members left out keep their
 * value), one without creates a content, and contents not listed go.
 */
@Injectable()
export class ColumnContents {
  constructor(private readonly composer: ContentComposer) {}

  /** The elements' own work (sanitising, defaults, their size), done before the lock. */
  prepare(elements: readonly ColumnContentDto[]): PreparedElement[] {
    assertWithinCount(elements.length, CONTENTS_PER_COLUMN_MAX, 'A column');
    return elements.map((element, index) => {
      const prepared = this.composer.prepare(element);
      if (prepared.data) assertContentData(prepared.data, `/contents/${index}/data`);
      return { id: element._id, prepared };
    });
  }

  /** The new list, given the column's contents as stored. Any other `_id` is a client error. */
  plan(elements: readonly PreparedElement[], current: readonly ContentRecord[]): ContentWrite[] {
    const byId = new Map(current.map((content) => [content.id, content]));
    const seen = new Set<string>();
    return elements.map(({ id, prepared }, index) => {
      const existing = id === undefined ? undefined : byId.get(id);
      if (id !== undefined && (!existing || seen.has(id))) {
        throw new RequestValidationError([
          {
            pointer: `/contents/${index}/_id`,
            detail: existing
              ? 'is listed twice'
              : 'is not the id of a content of this column (leave _id out to create a content)',
          },
        ]);
      }
      const composed = this.composer.merge(prepared, existing);
      if (!existing) return composed;
      seen.add(existing.id);
      return { id: existing.id, ...composed };
    });
  }

  /** Whether a plan leaves the column's contents exactly as they are, in the same order. */
  same(plan: readonly ContentWrite[], current: readonly ContentRecord[]): boolean {
    return (
      plan.length === current.length &&
      plan.every((content, index) => {
        const { id, type, style, data } = current[index];
        return content.id === id && isDeepStrictEqual({ id, type, style, data }, content);
      })
    );
  }
}
