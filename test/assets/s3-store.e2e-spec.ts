import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { freePort } from '../support/free-port';
import { Api, startTestApp } from '../support/test-app';
import { image } from './images';
import { describeWithMotoServer, startMotoServer } from './moto-server';

const BUCKET = 'layout-assets';

describeWithMotoServer('the S3 asset store, against an S3-protocol server on loopback', () => {
  let moto: Awaited<ReturnType<typeof startMotoServer>>;
  let s3: S3Client;
  let folder: string;
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;

  beforeAll(async () => {
    // moto takes any credentials; the SDK's chain reads these.
    process.env.AWS_ACCESS_KEY_ID ??= 'test';
    process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
    moto = await startMotoServer();
    s3 = new S3Client({
      region: 'us-east-1',
      endpoint: moto.endpoint,
      forcePathStyle: true,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
    folder = mkdtempSync(join(tmpdir(), 'assets-s3-'));
    app = await startTestApp({
      ASSET_STORE: 's3',
      S3_ENDPOINT: moto.endpoint,
      S3_BUCKET: BUCKET,
      ASSET_DIR: folder,
    });
    api = new Api(app);
    ({ token } = await api.newAccount('assets-s3'));
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    s3?.destroy();
    await moto?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  async function objectKeys(): Promise<string[]> {
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET }));
    return (listed.Contents ?? []).map((object) => object.Key!);
  }

  it('keeps the bytes in the bucket, serves them whole and in ranges, and deletes them', async () => {
    const bytes = await image('webp', 80, 60, 4);
    const created = await api.request('POST', '/assets', {
      token,
      raw: bytes,
      headers: { 'content-type': 'image/webp' },
    });
    expect(created.status).toBe(201);
    const id = created.body._id as string;
    expect(await objectKeys()).toContain(id);
    const object = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: id }));
    expect(object.ContentType).toBe('image/webp');
    expect(Buffer.from(await object.Body!.transformToByteArray()).equals(bytes)).toBe(true);

    const whole = await fetch(`${api.baseUrl}/assets/${id}`);
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);
    const part = await fetch(`${api.baseUrl}/assets/${id}`, { headers: { range: 'bytes=3-12' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(3, 13))).toBe(true);

    expect((await api.delete(`/assets/${id}`, { token })).status).toBe(204);
    expect(await objectKeys()).not.toContain(id);
    expect(readdirSync(join(folder, '.incoming'))).toEqual([]);
  });

  it('answers 503 when the store is down, keeping neither bytes nor a row', async () => {
    const closed = await freePort();
    const down = await startTestApp({
      ASSET_STORE: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${closed}`,
      S3_BUCKET: BUCKET,
      ASSET_DIR: folder,
    });
    try {
      const client = new Api(down);
      const { token: mine } = await client.newAccount('assets-s3-down');
      const refused = await client.request('POST', '/assets', {
        token: mine,
        raw: await image('png', 30, 30, 8),
        headers: { 'content-type': 'image/png' },
      });
      expect(refused.status).toBe(503);
      expect(refused.body.type).toBe('/problems/asset-store-unavailable');
      expect(refused.headers['retry-after']).toBe('5');
      expect((await client.get('/assets', { token: mine })).body).toEqual([]);
      expect(readdirSync(join(folder, '.incoming'))).toEqual([]);
    } finally {
      await down.close();
    }
  });
});
