import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { AssetStoreUnavailableError } from '../asset-errors';
import { type S3Config } from '../../config/app-config';
import { type AssetStore, type ByteRange } from './asset-store';

/** How long the store may take to connect, and to answer one request. */
const CONNECT_TIMEOUT_MS = 3000;
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Assets in an S3-compatible bucket (`ASSET_STORE=s3`), through the AWS SDK. Credentials come
 * from the SDK's usual chain (`AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY`, a profile, a
 * role). The SDK adds checksums of its own to every request and checks those of every answer
 * by default, which S3-compatible servers other than AWS's do not all understand: here they are
 * sent and checked only where an operation requires them. A put sends the spooled file with its
 * length, as one request.
 */
export class S3AssetStore implements AssetStore {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(config: S3Config) {
    this.bucket = config.bucket ?? '';
    this.client = new S3Client({
      region: config.region,
      ...(config.endpoint === undefined ? {} : { endpoint: config.endpoint }),
      forcePathStyle: config.forcePathStyle,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 2,
      requestHandler: {
        connectionTimeout: CONNECT_TIMEOUT_MS,
        requestTimeout: REQUEST_TIMEOUT_MS,
      },
    });
  }

  async put(key: string, file: string, size: number, contentType: string): Promise<void> {
    await reached(() =>
      this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: createReadStream(file),
          ContentLength: size,
          ContentType: contentType,
        }),
      ),
    );
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const answer = await reached(() =>
      this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      ),
    );
    if (!(answer.Body instanceof Readable)) throw new AssetStoreUnavailableError();
    return answer.Body;
  }

  async delete(key: string): Promise<void> {
    await reached(() =>
      this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })),
    );
  }

  /** Closes the client's connections. */
  destroy(): void {
    this.client.destroy();
  }
}

/** The store's answer; any failure to get one is the store's unavailability. */
async function reached<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch {
    throw new AssetStoreUnavailableError();
  }
}
