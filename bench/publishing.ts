import sharp from 'sharp';
import { type ServerProcess } from './processes';
import { rssKb } from './proc-stats';
import { type Targets } from './targets';
import { type LoadSettings, measureTreeReads } from './tree-reads';
import { type LoadLine } from './yardstick';

// The proposal sent out (issue 52), each set beside the yardstick's whole-project read:
// `render`, the read projects rendered as pages, unchanged between reads; `shared`, a share link
// of each opened without an account; `assets`, an image's bytes read again and again, as large
// as the first read project's whole JSON (the "both about 50–200 KB"), and
// ten uploads of 10 MiB at once, whose rise of the service's peak RSS is judged.

/** Uploads sent at once, and the side of each image: noise, so that each is close to 10 MiB. */
const UPLOADS_AT_ONCE = 10;
const UPLOAD_IMAGE_SIDE = 1800;
/** How often the service's RSS is sampled while the uploads run. */
const RSS_SAMPLE_MS = 20;

const authorised = (targets: Targets) => ({ authorization: `Bearer ${targets.token}` });

export function measureRender(
  server: ServerProcess,
  targets: Targets,
  settings: LoadSettings,
  dbpid: number | undefined,
): Promise<LoadLine> {
  return measureTreeReads(server, targets, settings, dbpid, {
    scenario: 'render',
    success: 200,
    headers: () => ({}),
    path: (i) => `/projects/${targets.projects[i]}/render`,
  });
}

export async function measureShared(
  server: ServerProcess,
  targets: Targets,
  settings: LoadSettings,
  dbpid: number | undefined,
): Promise<LoadLine> {
  const links: string[] = [];
  for (const project of targets.projects) {
    const response = await fetch(`${server.url}/projects/${project}/links`, {
      method: 'POST',
      headers: { ...authorised(targets), 'content-type': 'application/json' },
      body: '{}',
    });
    const link = (await response.json()) as { url?: string };
    if (response.status !== 201 || link.url === undefined) {
      throw new Error(`POST /projects/${project}/links answered ${response.status}`);
    }
    links.push(link.url);
  }
  return measureTreeReads(server, targets, settings, dbpid, {
    scenario: 'shared',
    success: 200,
    headers: () => ({}),
    path: (i) => links[i],
    anonymous: true,
  });
}

/** The asset read's numbers, and how far ten 10 MiB uploads at once raised the peak RSS. */
export interface AssetsResult {
  line: LoadLine;
  /** Peak RSS during the uploads minus the RSS before them, MiB. */
  uploadRssRiseMiB: number;
  /** Uploads that did not answer 201 or 200. */
  uploadFailures: number;
}

export async function measureAssets(
  server: ServerProcess,
  targets: Targets,
  settings: LoadSettings,
  dbpid: number | undefined,
): Promise<AssetsResult> {
  const url = await upload(server, targets, await noise(await sideLike(server, targets), 0));
  const line = await measureTreeReads(server, targets, settings, dbpid, {
    scenario: 'assets',
    success: 200,
    headers: () => ({}),
    path: () => url,
    anonymous: true,
  });
  const images = await Promise.all(
    Array.from({ length: UPLOADS_AT_ONCE }, (_, i) => noise(UPLOAD_IMAGE_SIDE, i + 1)),
  );
  const before = rssKb(server.pid);
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssKb(server.pid));
  }, RSS_SAMPLE_MS);
  const answers = await Promise.allSettled(images.map((bytes) => upload(server, targets, bytes)));
  clearInterval(sampler);
  peak = Math.max(peak, rssKb(server.pid));
  return {
    line,
    uploadRssRiseMiB: Math.round((peak - before) / 1024),
    uploadFailures: answers.filter((answer) => answer.status === 'rejected').length,
  };
}

/** The side of a square image of noise as large as the first read project's JSON. */
async function sideLike(server: ServerProcess, targets: Targets): Promise<number> {
  const response = await fetch(`${server.url}/projects/${targets.projects[0]}`, {
    headers: authorised(targets),
  });
  const bytes = (await response.arrayBuffer()).byteLength;
  return Math.max(16, Math.round(Math.sqrt(bytes / 3)));
}

/** A PNG of noise, `side` pixels square: it compresses to about its raw size. */
async function noise(side: number, seed: number): Promise<Buffer> {
  const pixels = Buffer.alloc(side * side * 3);
  let state = Math.imul(seed + 1, 2654435761) >>> 0;
  for (let i = 0; i < pixels.length; i += 1) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    pixels[i] = state >>> 24;
  }
  return sharp(pixels, { raw: { width: side, height: side, channels: 3 } })
    .png()
    .toBuffer();
}

async function upload(server: ServerProcess, targets: Targets, bytes: Buffer): Promise<string> {
  const response = await fetch(`${server.url}/assets`, {
    method: 'POST',
    headers: { ...authorised(targets), 'content-type': 'image/png' },
    body: bytes,
  });
  const asset = (await response.json()) as { url?: string };
  if ((response.status !== 201 && response.status !== 200) || asset.url === undefined) {
    throw new Error(`POST /assets answered ${response.status}`);
  }
  return asset.url;
}
