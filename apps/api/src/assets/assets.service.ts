import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Inject, Injectable, Logger } from '@nestjs/common';
import parseRange from 'range-parser';
import { ASSET_BYTES_MAX, type AssetResponse } from '@layout/contracts';
import {
  AuthenticationRequiredError,
  LimitExceededError,
  ResourceNotFoundError,
} from '../common/errors';
import { digestTag } from '../common/http/entity-tags';
import {
  AssetInUseError,
  AssetTooLargeError,
  RangeNotSatisfiableError,
  UnsupportedImageError,
} from './asset-errors';
import { type RequestConditions } from '../common/http/request-conditions';
import { Representation } from '../common/http/representation';
import { SerializedJson } from '../common/json/serialized-json';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { Database } from '../database/database';
import { AssetsRepository } from './assets.repository';
import { KeptBytes } from './kept-bytes';
import { ASSET_STORE, type AssetStore, type ByteRange, INCOMING_FOLDER } from './store/asset-store';
import { ACCEPTED_IMAGE_TYPES, probeImage } from './upload/image-probe';
import { spoolUpload } from './upload/spooled-upload';

/** An upload as the controller hands it over: the raw body and what the request declared. */
export interface UploadRequest {
  /** The body as it arrives, or whatever a parser made of a body that is no image. */
  readonly body: unknown;
  readonly contentType: string | undefined;
  readonly contentLength: number | undefined;
}

/** An upload's answer: 201 for new bytes, 200 for bytes the account had already. */
export interface UploadAnswer {
  readonly status: 200 | 201;
  readonly asset: SerializedJson<AssetResponse>;
  readonly location: string;
}

/** A read of an asset's bytes, ready to send. */
export interface AssetBytes {
  readonly status: 200 | 206 | 304;
  readonly headers: Readonly<Record<string, string>>;
  /** The bytes (none for a 304; a HEAD's are not sent). */
  readonly body?: Readable | Buffer;
}

/** Immutable: an asset's bytes never change under its id. */
const CACHE_FOREVER = 'public, max-age=31536000, immutable';

/**
 * Uploaded images. An upload is spooled to a file as it arrives (hashed on the way, never held
 * in memory), checked from its bytes (probeImage), stored under a new unguessable id, then
 * registered in the database under the account's lock, where the account's limit and the
 * bytes it has already are decided exactly. Whatever fails on the way (the client gone, the
 * limits, the image, the store, the database) removes what was written before it: the spool,
 * the stored bytes, and no row is left.
 */
@Injectable()
export class AssetsService {
  private readonly logger = new Logger('Assets');
  private readonly incoming: string;
  private readonly accountBytes: number;
  private readonly keptBytes = new KeptBytes();

  constructor(
    private readonly db: Database,
    private readonly assets: AssetsRepository,
    @Inject(ASSET_STORE) private readonly store: AssetStore,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.incoming = join(config.assets.dir, INCOMING_FOLDER);
    this.accountBytes = config.assets.accountBytes;
  }

  async upload(accountId: string, request: UploadRequest): Promise<UploadAnswer> {
    const declared = request.contentType?.split(';')[0].trim().toLowerCase() ?? '';
    if (!(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(declared)) {
      throw new UnsupportedImageError(
        `Send the image's bytes as the body, declared as one of ${ACCEPTED_IMAGE_TYPES.join(', ')}`,
      );
    }
    if (!(request.body instanceof Readable)) {
      throw new UnsupportedImageError('The body is not an image');
    }
    if ((request.contentLength ?? 0) > ASSET_BYTES_MAX) {
      request.body.resume();
      throw new AssetTooLargeError(ASSET_BYTES_MAX);
    }
    const spooled = await spoolUpload(request.body, this.incoming, ASSET_BYTES_MAX);
    try {
      const image = await probeImage(spooled.file, declared, spooled.tail);
      const before = await this.assets.beforeUpload(this.db, accountId, spooled.sha256);
      if (before === undefined) throw new AuthenticationRequiredError('The account was deleted');
      if (before.existing !== null) return this.answer(200, before.existing);
      this.assertRoomFor(Number(before.asset_bytes), spooled.size);

      const id = randomUUID();
      await this.store.put(id, spooled.file, spooled.size, image.contentType);
      let registered;
      try {
        registered = await this.db.transaction((round) => {
          const row = this.assets.register(round, {
            accountId,
            id,
            sha256: spooled.sha256,
            contentType: image.contentType,
            size: spooled.size,
            width: image.width,
            height: image.height,
            quota: this.accountBytes,
          });
          return round.finish(() => row.get());
        });
      } catch (error) {
        await this.forget(id);
        throw error;
      }
      if (registered?.inserted) return this.answer(201, registered.inserted);
      await this.forget(id);
      if (!registered?.found) throw new AuthenticationRequiredError('The account was deleted');
      if (registered.existing !== null) return this.answer(200, registered.existing);
      throw this.overQuota();
    } finally {
      await rm(spooled.file, { force: true });
    }
  }

  /** The caller's assets, newest first: all, or a page of `limit` after the asset `after`. */
  async list(
    accountId: string,
    limit: number | undefined,
    after: string | undefined,
    conditions: RequestConditions,
  ): Promise<{ representation: Representation<AssetResponse[]>; next?: string }> {
    const page = await this.assets.page(this.db, accountId, limit ?? null, after ?? null);
    const json = page?.json ?? '[]';
    const more = page?.more === true && page.last !== null;
    const etag = digestTag('a', `${json}${more}`);
    const next = more ? (page.last ?? undefined) : undefined;
    if (conditions.isNotModified(etag)) return { representation: Representation.notModified(etag) };
    return {
      representation: Representation.of(new SerializedJson<AssetResponse[]>(json), { etag }),
      ...(next === undefined ? {} : { next }),
    };
  }

  /**
   * The asset's bytes, as a static file server answers: its tag (the SHA-256), cached for a
   * year by anyone, one range of them when asked (`Range`, `If-Range`), 304 on its tag.
   */
  async read(
    assetId: string,
    headers: { range?: string; ifRange?: string },
    conditions: RequestConditions,
  ): Promise<AssetBytes> {
    const asset = (await this.assets.find(this.db, assetId)) ?? notFound();
    const etag = `"${asset.sha256}"`;
    const common = {
      etag,
      'cache-control': CACHE_FOREVER,
      'accept-ranges': 'bytes',
      // Shown by pages of any origin (an editor's, a shared page), as from a CDN.
      'cross-origin-resource-policy': 'cross-origin',
    };
    if (conditions.isNotModified(etag)) return { status: 304, headers: common };
    const range = rangeOf(asset.size, headers.range, headers.ifRange, etag);
    const length = range ? range.end - range.start + 1 : asset.size;
    const sent = {
      ...common,
      'content-type': asset.content_type,
      'content-length': String(length),
      ...(range ? { 'content-range': `bytes ${range.start}-${range.end}/${asset.size}` } : {}),
    };
    const status = range ? 206 : 200;
    return { status, headers: sent, body: await this.bytesOf(assetId, asset.size, range) };
  }

  /** The asset's bytes, or a range of them: from memory when this instance keeps them. */
  private async bytesOf(
    assetId: string,
    size: number,
    range: ByteRange | undefined,
  ): Promise<Readable | Buffer> {
    let kept = this.keptBytes.find(assetId);
    if (kept === undefined && this.keptBytes.keeps(size)) {
      kept = await this.keptBytes.keep(assetId, await this.store.read(assetId), size);
    }
    if (kept === undefined) return this.store.read(assetId, range);
    return range ? kept.subarray(range.start, range.end + 1) : kept;
  }

  /** Deletes the caller's asset and its bytes, unless a content or style names it (409). */
  async delete(accountId: string, assetId: string): Promise<void> {
    const outcome = await this.db.transaction((round) => {
      const deleted = this.assets.delete(round, accountId, assetId);
      return round.finish(() => deleted.get());
    });
    if (!outcome?.found) notFound();
    if (!outcome.deleted) throw new AssetInUseError(outcome.paths ?? []);
    this.keptBytes.forget(assetId);
    await this.forget(assetId);
  }

  private answer(status: 200 | 201, json: string): UploadAnswer {
    const asset = new SerializedJson<AssetResponse>(json);
    return { status, asset, location: asset.toJSON().url };
  }

  private assertRoomFor(used: number, size: number): void {
    if (used + size > this.accountBytes) throw this.overQuota();
  }

  private overQuota(): LimitExceededError {
    return new LimitExceededError(
      this.accountBytes,
      `An account's assets add up to at most ${this.accountBytes} bytes; delete some first`,
    );
  }

  /** Removes stored bytes that no row names; a failure leaves them, logged, for an operator. */
  private async forget(id: string): Promise<void> {
    await this.store.delete(id).catch(() => {
      this.logger.warn(`The bytes of asset ${id} could not be removed from the store`);
    });
  }
}

/**
 * The one range a request asks for, when it asks for one that applies: `Range` with a single
 * satisfiable range, and no `If-Range` or one that names the current tag. Several ranges, or a
 * header that is no range, get the whole asset, as static file servers answer.
 */
function rangeOf(
  size: number,
  header: string | undefined,
  ifRange: string | undefined,
  etag: string,
): ByteRange | undefined {
  if (header === undefined || (ifRange !== undefined && ifRange !== etag)) return undefined;
  const ranges = parseRange(size, header, { combine: true });
  if (ranges === -1) throw new RangeNotSatisfiableError(size);
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return undefined;
  return { start: ranges[0].start, end: ranges[0].end };
}

function notFound(): never {
  throw new ResourceNotFoundError('Asset');
}
