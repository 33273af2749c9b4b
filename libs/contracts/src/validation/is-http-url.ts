import { URL_MAX_LENGTH } from '../limits';
import { Rule } from './rule';
import type { SchemaHint } from './schema-hints';
import { isSafeText } from './safe-text';

// The WHATWG parser forgives a lot ("https:example.com", backslashes, embedded tabs and newlines,
// surrounding spaces); the stored string must itself be a plain absolute URL, so those are refused
// before parsing.
const ABSOLUTE_HTTP_START = /^https?:\/\/[^/\\]/i;
const WHITESPACE = /\s/;

function hasControlCharacter(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) {
    const unit = value.charCodeAt(index);
    if (unit < 0x20 || unit === 0x7f) {
      return true;
    }
  }
  return false;
}

export function isHttpUrl(value: unknown): value is string {
  if (
    typeof value !== 'string' ||
    value.length > URL_MAX_LENGTH ||
    !ABSOLUTE_HTTP_START.test(value) ||
    WHITESPACE.test(value) ||
    value.includes('\\') ||
    hasControlCharacter(value) ||
    !isSafeText(value)
  ) {
    return false;
  }
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export const HTTP_URL_DETAIL = `must be an absolute http or https URL of at most ${URL_MAX_LENGTH} characters`;

/** An absolute http(s) URL; the rule is stricter than the pattern (see isHttpUrl). */
export const HTTP_URL_SCHEMA: SchemaHint = {
  type: 'string',
  format: 'uri',
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^/\\\\]',
  maxLength: URL_MAX_LENGTH,
};

export function IsHttpUrl(): PropertyDecorator {
  return Rule('isHttpUrl', isHttpUrl, HTTP_URL_DETAIL, HTTP_URL_SCHEMA);
}

/** A background image is either none (`""`) or an http(s) URL. */
export function IsBackgroundImage(): PropertyDecorator {
  return Rule(
    'isBackgroundImage',
    (value) => value === '' || isHttpUrl(value),
    `must be "" or an absolute http or https URL of at most ${URL_MAX_LENGTH} characters`,
    { oneOf: [{ type: 'string', enum: [''] }, HTTP_URL_SCHEMA] },
  );
}
