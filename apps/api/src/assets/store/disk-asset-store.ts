import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type Readable } from 'node:stream';
import { AssetStoreUnavailableError } from '../asset-errors';
import { type AssetStore, type ByteRange } from './asset-store';

/**
 * The embedded store: each asset a file of a folder (`ASSET_DIR`, `.data/assets` by default),
 * in a sub-folder per first two characters of its id so that no folder holds them all. A put
 * renames the spooled upload into place (the spool is in the same folder tree), so that a file
 * is there whole or not at all.
 */
export class DiskAssetStore implements AssetStore {
  constructor(private readonly root: string) {}

  async put(key: string, file: string): Promise<void> {
    const target = this.pathOf(key);
    try {
      await mkdir(join(this.root, key.slice(0, 2)), { recursive: true });
      await rename(file, target).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EXDEV') throw error;
        // Another file system: copy beside it, then rename into place.
        await copyFile(file, `${target}.part`);
        await rename(`${target}.part`, target);
      });
    } catch {
      await rm(`${target}.part`, { force: true }).catch(() => undefined);
      throw new AssetStoreUnavailableError();
    }
  }

  read(key: string, range?: ByteRange): Promise<Readable> {
    const stream = createReadStream(this.pathOf(key), range && { ...range });
    return new Promise((resolve, reject) => {
      stream.once('open', () => resolve(stream));
      stream.once('error', () => reject(new AssetStoreUnavailableError()));
    });
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true }).catch(() => {
      throw new AssetStoreUnavailableError();
    });
  }

  private pathOf(key: string): string {
    return join(this.root, key.slice(0, 2), key);
  }
}
