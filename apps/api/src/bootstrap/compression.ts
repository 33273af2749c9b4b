import compress from '@fastify/compress';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  BROTLI_OPTIONS,
  compressTaggedAnswersOnce,
  ENCODINGS,
  GZIP_OPTIONS,
} from './tagged-compression';

/** Below this, compressing costs more than the bytes it saves. */
const THRESHOLD_BYTES = 1024;

/**
 * JSON answers (problem+json included) and the explorer's files are compressed when the client
 * accepts it, brotli first, then gzip. Both run at their fastest level: answers are built per
 * request, and on a whole project the fastest levels still shrink it about elevenfold (brotli)
 * and tenfold (gzip), while the default levels cost a third more CPU for a tenth fewer bytes
 * (bench/results/changes.md). Registered before any route, so that every route has it; an
 * answer with a strong ETag is compressed once per tag (tagged-compression.ts).
 *
 * The ETag stays the same in every encoding: it names the revision of the representation that
 * If-Match and If-None-Match compare, whatever the bytes on the wire.
 */
export async function configureCompression(app: NestFastifyApplication): Promise<void> {
  compressTaggedAnswersOnce(app.getHttpAdapter().getInstance(), THRESHOLD_BYTES);
  await app.register(compress, {
    encodings: ENCODINGS,
    threshold: THRESHOLD_BYTES,
    brotliOptions: BROTLI_OPTIONS,
    zlibOptions: GZIP_OPTIONS,
  });
}
