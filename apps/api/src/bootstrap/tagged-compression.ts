import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { SizedLru } from '../common/cache/sized-lru';

/** Brotli first, then gzip, each at its fastest level (see compression.ts). */
export const ENCODINGS: ('br' | 'gzip')[] = ['br', 'gzip'];
export const BROTLI_OPTIONS = { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } };
export const GZIP_OPTIONS = { level: 1 };
// What the cache may hold in all, and per answer: the compressed bytes of whole projects are a
// few KB each, the largest allowed project about a tenth of its 8 MiB.
const CACHE_BYTES = 16 * 1024 * 1024;
const ENTRY_MAX_BYTES = 1024 * 1024;

const compressors = {
  br: promisify(brotliCompress),
  gzip: promisify(gzip),
};
const OPTIONS = { br: BROTLI_OPTIONS, gzip: GZIP_OPTIONS };

/**
 * Compresses an answer that carries a strong ETag once per tag, not once per request: the tag
 * names exactly one representation of that URL (it changes whenever the document does), so the
 * compressed bytes of (encoding, URL, tag) can be kept and sent again. This takes the cost of
 * compression off repeated reads of an unchanged project. Runs before @fastify/compress, which
 * leaves an answer that is already encoded alone and compresses everything else (untagged
 * answers, problems, the explorer's files). A cache of this process, bounded in bytes, least
 * recently used first out; compression runs on libuv's threads, off the event loop.
 */
export function compressTaggedAnswersOnce(fastify: FastifyInstance, threshold: number): void {
  const cache = new SizedLru<Buffer>(CACHE_BYTES, (_key, body) => body.length);
  // A callback hook, not an async one: most answers pass untouched, without a promise each.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (!isTaggedDocument(reply, payload, threshold)) {
      done(null, payload);
      return;
    }
    // Sent in any encoding, identity included: which one depends on the request's header.
    varyOnEncoding(reply);
    const key = keyOf(request, reply);
    if (key === undefined) {
      done(null, payload);
      return;
    }
    const send = (body: Buffer) => {
      void reply.header('content-encoding', key.encoding).removeHeader('content-length');
      done(null, body);
    };
    const kept = cache.get(key.name);
    if (kept !== undefined) {
      send(kept);
      return;
    }
    compressors[key.encoding](payload as string | Buffer, OPTIONS[key.encoding]).then((body) => {
      if (body.length <= ENTRY_MAX_BYTES) cache.set(key.name, body);
      send(body);
    }, done);
  });
}

/**
 * A 200 with a strong ETag, large enough to compress, and no image (an uploaded asset's bytes,
 * compressed already): what this compresses once per tag.
 */
function isTaggedDocument(reply: FastifyReply, payload: unknown, threshold: number): boolean {
  // The document's text, or its bytes when a read served them from those it keeps.
  const length = typeof payload === 'string' || Buffer.isBuffer(payload) ? payload.length : 0;
  const etag = reply.getHeader('etag');
  return (
    length >= threshold &&
    reply.statusCode === 200 &&
    typeof etag === 'string' &&
    !etag.startsWith('W/') &&
    !String(reply.getHeader('content-type')).startsWith('image/')
  );
}

function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const present = typeof vary === 'string' ? vary.toLowerCase().split(/\s*,\s*/) : [];
  if (present.includes('accept-encoding')) return;
  void reply.header('vary', vary ? `${String(vary)}, accept-encoding` : 'accept-encoding');
}

/** The cache key of a tagged document (see isTaggedDocument) and the encoding it is sent in. */
function keyOf(
  request: FastifyRequest,
  reply: FastifyReply,
): { name: string; encoding: 'br' | 'gzip' } | undefined {
  const accepted = request.headers['accept-encoding'];
  if (typeof accepted !== 'string') return undefined;
  const encoding = negotiate(accepted.toLowerCase(), ENCODINGS);
  if (encoding !== 'br' && encoding !== 'gzip') return undefined;
  return { name: `${encoding} ${String(reply.getHeader('etag'))} ${request.url}`, encoding };
}
