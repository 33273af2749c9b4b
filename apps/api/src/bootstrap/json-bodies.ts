import { errorCodes, type FastifyInstance } from 'fastify';
import { findBodyShapeProblems } from '@layout/contracts';
import { RequestValidationError } from '../common/errors';

/** The contract's body limit: larger bodies answer 413. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Every `charset` parameter of a Content-Type header, at a parameter boundary, with its value
 * quoted or not (RFC 9110 §5.6.6). A quoted value is taken whole, quoted pairs and all.
 */
const CHARSET_PARAMETER = /;\s*charset\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/gi;
/** The labels of UTF-8 that clients send (WHATWG Encoding names both). */
const UTF8_LABEL = /^utf-?8$/i;

/**
 * Whether a JSON Content-Type declares no charset or only UTF-8 (`charset=utf-8`, `UTF-8`,
 * `"utf-8"`, `utf8`). Any other charset, an empty one, or a UTF-8 one beside another, is
 * refused: the body is decoded as UTF-8 only, never reinterpreted.
 */
export function declaresUtf8OrNothing(contentType: string | undefined): boolean {
  if (contentType === undefined || !contentType.includes(';')) return true;
  for (const [, raw] of contentType.matchAll(CHARSET_PARAMETER)) {
    const value = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw.trim();
    if (!UTF8_LABEL.test(value)) return false;
  }
  return true;
}

/** A body that is not UTF-8 is no JSON text (RFC 8259 §8.1); the filter answers malformed-json. */
export class InvalidUtf8BodyError extends Error {
  readonly code = 'LAYOUT_ERR_INVALID_UTF8_BODY';
  readonly statusCode = 400;

  constructor() {
    super('The body is not valid UTF-8');
    this.name = 'InvalidUtf8BodyError';
  }
}

// One decoder for every body: decode() without `stream` starts afresh each time. `fatal` throws
// on any byte sequence that is not UTF-8 (overlong forms, encoded surrogates, code points past
// U+10FFFF, truncated sequences) instead of putting U+FFFD in its place; a leading byte order
// mark is dropped (`ignoreBOM` false), which RFC 8259 §8.1 allows a parser to do.
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** The text of a JSON body, or undefined when its bytes are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Bodies are JSON only: every other content type answers 415, and so does a JSON body declared
 * in another charset than UTF-8. The bytes are decoded as strict UTF-8 (a leading byte order
 * mark is dropped): anything else answers 400 malformed-json, never a string with U+FFFD in it.
 * An empty body with a JSON content type (some clients send one on DELETE) counts as no body
 * rather than malformed JSON; `__proto__` and `constructor.prototype` keys are refused by
 * Fastify's secure parser, and answered as the unknown members they are (400 validation, with
 * their pointers). Errors go through `done`, so that the problem filter maps them.
 */
export function configureJsonBodies(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    'application/json',
    // A Buffer: decoding it as a string first (parseAs 'string') would already have replaced
    // invalid bytes with U+FFFD. Fastify hands over one buffer, decoded once here.
    { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES },
    (request, body, done) => {
      const contentType = request.headers['content-type'];
      if (!declaresUtf8OrNothing(contentType)) {
        done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(contentType), undefined);
        return;
      }
      // parseAs 'buffer': always a Buffer (Fastify's typings say string | Buffer for any parseAs).
      const text = decodeUtf8(body as Buffer);
      if (text === undefined) {
        done(new InvalidUtf8BodyError(), undefined);
        return;
      }
      if (text.length === 0 || text.trim() === '') {
        done(null, undefined);
        return;
      }
      // Fastify's parser answers through `done`; its return value carries nothing.
      void parseJson(request, text, (error, parsed) =>
        done(error && (reservedMembersOf(text) ?? error), parsed),
      );
    },
  );
}

/**
 * The secure parser refuses a body with a reserved key as if it were no JSON at all. When the
 * text is valid JSON after all, that was the cause: its reserved keys are unknown members, as
 * `constructor` alone already is. `JSON.parse` itself only creates own properties, and the
 * value is walked, never merged into anything.
 */
function reservedMembersOf(text: string): RequestValidationError | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const problems = findBodyShapeProblems(value);
  return problems.length > 0 ? new RequestValidationError(problems) : undefined;
}
