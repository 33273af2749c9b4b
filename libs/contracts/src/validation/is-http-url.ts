import { Transform } from 'class-transformer';
import { URL_MAX_LENGTH } from '../limits';
import { Rule } from './rule';
import type { SchemaHint } from './schema-hints';
import { isSafeText } from './safe-text';
import { ASSET_PATH_SCHEMA, isAssetPath } from './is-asset-path';

// The WHATWG parser forgives a lot ("https:example.com", backslashes, embedded tabs and newlines,
// surrounding spaces); the string sent must itself be a plain absolute URL, so those are refused
// before parsing.
const ABSOLUTE_HTTP_START = /^https?:\/\/[^/\\]/i;
const WHITESPACE = /\s/;

/**
 * A host as WHATWG serialises a plain one: a lower-case (punycoded) name or an IP address.
 * WHATWG also lets a domain hold `(`, `)`, quotes, `{`, `$`, ... which no real host has and
 * which cannot be percent-encoded there: such a URL is refused.
 */
const PLAIN_HOST = /^(?:[a-z0-9_.-]+|\[[0-9a-f:.]+\])$/;

/**
 * What a URL may not hold as it is once it is stored, because a client inlines it into CSS
 * (`url(...)`, quoted or not) or into an HTML attribute: `(`, `)`, both quotes and the backslash
 * end or escape a `url()` token or a CSS string; whitespace and controls end an unquoted
 * `url()`; `<`, `>` and the backtick matter in HTML. Every other non-ASCII character is caught
 * too, should any survive serialisation. `^` is encoded as well: the WHATWG standard added it to
 * the path's encode set, so newer parsers (Node 24) encode it in a path and older ones (Node 20,
 * some browsers) do not; encoding it everywhere makes every runtime store the same string.
 * Percent-encoding them keeps the URL's meaning: servers decode `%28` to `(` (and the
 * RFC 3986-illegal ones have no other spelling).
 */
const CSS_UNSAFE = /[^\x21-\x7e]|["'()<>\\`^]/gu;

function percentEncode(character: string): string {
  const unit = character.charCodeAt(0);
  return unit < 0x80
    ? `%${unit.toString(16).toUpperCase().padStart(2, '0')}`
    : encodeURIComponent(character);
}

function hasControlCharacter(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) {
    const unit = value.charCodeAt(index);
    if (unit < 0x20 || unit === 0x7f) {
      return true;
    }
  }
  return false;
}

/**
 * The form an absolute http(s) URL is stored in, or undefined when `value` is none (or longer
 * than 2048 characters, as sent or as stored). The form is the WHATWG URL serialisation
 * (`new URL(value).href`: scheme and host in lower case, IDN hosts punycoded, non-ASCII and
 * some other characters percent-encoded, default port and dot segments removed, `/` for an
 * empty path) with `(`, `)`, `'`, `"`, `\`, the backtick, `<`, `>` and whitespace
 * percent-encoded as well, so that the stored string can go into a CSS `url()` or an HTML
 * attribute as it is and still be one URL. Normalising twice changes nothing.
 *
 * @example normaliseHttpUrl('https://en.wikipedia.org/wiki/File:Foo_(bar).png')
 *   // 'https://en.wikipedia.org/wiki/File:Foo_%28bar%29.png'
 */
export function normaliseHttpUrl(value: unknown): string | undefined {
  if (
    typeof value !== 'string' ||
    value.length > URL_MAX_LENGTH ||
    !ABSOLUTE_HTTP_START.test(value) ||
    WHITESPACE.test(value) ||
    value.includes('\\') ||
    hasControlCharacter(value) ||
    !isSafeText(value)
  ) {
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (
    (url.protocol !== 'http:' && url.protocol !== 'https:') ||
    url.hostname === '' ||
    !PLAIN_HOST.test(url.hostname)
  ) {
    return undefined;
  }
  const normalised = url.href.replace(CSS_UNSAFE, percentEncode);
  return normalised.length > URL_MAX_LENGTH ? undefined : normalised;
}

/** An absolute http(s) URL that can be stored (in its normal form: see normaliseHttpUrl). */
export function isHttpUrl(value: unknown): value is string {
  return normaliseHttpUrl(value) !== undefined;
}

/** An http(s) URL already in the form it is stored in: safe to put into CSS `url()` as is. */
export function isNormalisedHttpUrl(value: unknown): value is string {
  return typeof value === 'string' && normaliseHttpUrl(value) === value;
}

export const HTTP_URL_DETAIL = `must be an absolute http or https URL of at most ${URL_MAX_LENGTH} characters`;

/** An absolute http(s) URL; the rule is stricter than the pattern (see normaliseHttpUrl). */
export const HTTP_URL_SCHEMA: SchemaHint = {
  type: 'string',
  format: 'uri',
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^/\\\\]',
  maxLength: URL_MAX_LENGTH,
};

/**
 * Replaces an acceptable URL with its normal form before validation; anything else is left as
 * sent, for the rule to reject. The one place where every URL member (a style's
 * `backgroundImage`, an image's or a video's `url`) gets the form it is stored in.
 */
function ToNormalisedHttpUrl(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => normaliseHttpUrl(value) ?? value, {
    toClassOnly: true,
  });
}

/** An absolute http(s) URL, normalised (see normaliseHttpUrl) before it is checked. */
export function IsHttpUrl(): PropertyDecorator {
  const transform = ToNormalisedHttpUrl();
  const rule = Rule('isHttpUrl', isNormalisedHttpUrl, HTTP_URL_DETAIL, HTTP_URL_SCHEMA);
  return (target, member) => {
    transform(target, member);
    rule(target, member);
  };
}

/**
 * An image's URL: an absolute http(s) URL, normalised (see normaliseHttpUrl), or the path of an
 * asset uploaded to this service (`/assets/<id>`).
 */
export function IsImageUrl(): PropertyDecorator {
  const transform = ToNormalisedHttpUrl();
  const rule = Rule(
    'isImageUrl',
    (value) => isAssetPath(value) || isNormalisedHttpUrl(value),
    `${HTTP_URL_DETAIL}, or the path of an uploaded asset (/assets/<id>)`,
    { oneOf: [HTTP_URL_SCHEMA, ASSET_PATH_SCHEMA] },
  );
  return (target, member) => {
    transform(target, member);
    rule(target, member);
  };
}

/**
 * A background image is either none (`""`), an http(s) URL, normalised like IsHttpUrl's, or the
 * path of an uploaded asset (`/assets/<id>`).
 */
export function IsBackgroundImage(): PropertyDecorator {
  const transform = ToNormalisedHttpUrl();
  const rule = Rule(
    'isBackgroundImage',
    (value) => value === '' || isAssetPath(value) || isNormalisedHttpUrl(value),
    `must be "", an absolute http or https URL of at most ${URL_MAX_LENGTH} characters, or ` +
      'the path of an uploaded asset (/assets/<id>)',
    { oneOf: [{ type: 'string', enum: [''] }, HTTP_URL_SCHEMA, ASSET_PATH_SCHEMA] },
  );
  return (target, member) => {
    transform(target, member);
    rule(target, member);
  };
}
