import { type Readable } from 'node:stream';

/** Bytes `start` to `end` of an asset, both included (as HTTP ranges count). */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/**
 * Where assets' bytes live, each under its asset's id: a folder on disk, or an S3 bucket. The
 * database keeps what is known about them. Any failure to reach the store is thrown as
 * AssetStoreUnavailableError.
 */
export interface AssetStore {
  /** Keeps the bytes of `file` (spooled, complete) under `key`, whole or not at all. */
  put(key: string, file: string, size: number, contentType: string): Promise<void>;
  /** The bytes under `key`, or a range of them. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Removes the bytes under `key`; none there is no error. */
  delete(key: string): Promise<void>;
  /** Lets go of what the store holds open (a client's sockets), when the service stops. */
  destroy?(): void;
}

export const ASSET_STORE = Symbol('ASSET_STORE');

/** Where uploads are written while they arrive, within the asset folder. */
export const INCOMING_FOLDER = '.incoming';
