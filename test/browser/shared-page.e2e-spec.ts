import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Browser, Page } from 'playwright-core';
import { image } from '../assets/images';
import { Api, createLayout, startTestApp } from '../support/test-app';
import { describeWithChromium, launchChromium } from './chromium';
import { repoRoot } from './repo-root';

const ARTIFACTS = join(repoRoot(), 'test', 'artifacts');

let folder: string;
let app: NestFastifyApplication;
let api: Api;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'shared-page-'));
  app = await startTestApp({ ASSET_DIR: folder });
  api = new Api(app);
}, 60_000);

afterAll(async () => {
  await app?.close();
  rmSync(folder, { recursive: true, force: true });
});

/** A proposal of one row: an uploaded image beside texts, a video and a quote (6 + 4 + 2). */
async function proposal(): Promise<{ token: string; url: string; project: string }> {
  const { token } = await api.newAccount('shared-page');
  const uploaded = await api.request('POST', '/assets', {
    token,
    raw: await image('png', 320, 200, 42),
    headers: { 'content-type': 'image/png' },
  });
  expect(uploaded.status).toBe(201);
  const paths = await createLayout(api, token, 6);
  await api.put(paths.project, { title: 'Website redesign for ACME' }, { token });
  const post = (url: string, body: object) => api.post(url, body, { token });
  expect(
    (
      await post(paths.contents, {
        type: 'image',
        data: { url: uploaded.body.url, alt: 'The team at work', width: '100%' },
      })
    ).status,
  ).toBe(201);
  await post(paths.contents, { type: 'text', data: { html: '<p>We design <b>websites</b>.</p>' } });
  const second = (await post(paths.columns, { size: 4 })).body._id as string;
  const secondContents = `${paths.columns}/${second}/contents`;
  await post(secondContents, { type: 'text', data: { html: '<h3>Why us</h3><p>Fast.</p>' } });
  await post(secondContents, { type: 'video', data: { url: 'https://www.youtube.com/watch?v=x' } });
  const third = (await post(paths.columns, { size: 2 })).body._id as string;
  await post(`${paths.columns}/${third}/contents`, {
    type: 'quote',
    data: {
      options: { currency: 'EUR' },
      content: {
        fields: [
          { id: 'name', label: 'Item', show: true },
          { id: 'quantity', label: 'Qty', show: true },
          { id: 'price', label: 'Price', show: true },
        ],
        items: [{ id: '1', name: 'Design', quantity: 2, price: 500 }],
      },
    },
  });
  const link = await post(`${paths.project}/links`, {});
  expect(link.status).toBe(201);
  return { token, url: `${api.baseUrl}${link.body.url}`, project: paths.project };
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The boxes of the row and of its columns, as the page laid them out. */
async function rowLayout(page: Page): Promise<{ row: Box; columns: Box[] }> {
  const row = await page.locator('.pl-row').first().boundingBox();
  const columns = await page.locator('.pl-row').first().locator(':scope > .pl-column').all();
  const boxes = await Promise.all(columns.map((column) => column.boundingBox()));
  if (row === null || boxes.some((box) => box === null)) throw new Error('not laid out');
  return { row, columns: boxes as Box[] };
}

describeWithChromium('a shared proposal in a browser, at two widths', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
    mkdirSync(ARTIFACTS, { recursive: true });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('stands its columns side by side in proportion at 1 200 px, and stacks them at 400 px', async () => {
    const { url } = await proposal();
    const errors: string[] = [];

    for (const width of [1200, 400]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      const answer = await page.goto(url, { waitUntil: 'load' });
      expect(answer?.status()).toBe(200);
      expect(await page.title()).toBe('Website redesign for ACME');
      // The uploaded image loaded, through the page's own policy.
      const image = page.getByRole('img', { name: 'The team at work' });
      await image.waitFor();
      expect(await image.evaluate((img) => (img as { naturalWidth: number }).naturalWidth)).toBe(
        320,
      );
      expect(await page.getByRole('heading', { name: 'Why us' }).count()).toBe(1);
      expect(await page.getByRole('link', { name: /Watch the video on YouTube/ }).count()).toBe(1);
      expect(await page.getByRole('columnheader', { name: 'Price' }).count()).toBe(1);
      expect(await page.locator('.pl-total').textContent()).toBe('€1,000.00');

      const { row, columns } = await rowLayout(page);
      expect(columns).toHaveLength(3);
      if (width === 1200) {
        // One line, left to right, each as wide as its share of 12.
        for (const [index, size] of [6, 4, 2].entries()) {
          expect(Math.abs(columns[index].y - row.y)).toBeLessThan(1);
          expect(Math.abs(columns[index].width - (row.width * size) / 12)).toBeLessThan(1.5);
        }
        expect(columns[1].x).toBeGreaterThanOrEqual(columns[0].x + columns[0].width - 1);
        expect(columns[2].x).toBeGreaterThanOrEqual(columns[1].x + columns[1].width - 1);
      } else {
        // One above the other, each the row's whole width.
        for (const column of columns) {
          expect(Math.abs(column.width - row.width)).toBeLessThan(1);
          expect(Math.abs(column.x - row.x)).toBeLessThan(1);
        }
        expect(columns[1].y).toBeGreaterThanOrEqual(columns[0].y + columns[0].height - 1);
        expect(columns[2].y).toBeGreaterThanOrEqual(columns[1].y + columns[1].height - 1);
      }
      await page.screenshot({ path: join(ARTIFACTS, `shared-page-${width}.png`), fullPage: true });
      await context.close();
    }
    // Nothing on the page was refused by its policy, and nothing failed to load.
    expect(errors).toEqual([]);
  });

  it('shows a Share button on the live demo that creates a link and shows it', async () => {
    const { token, project } = await proposal();
    const me = await api.get('/accounts/auth/me', { token });
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${api.baseUrl}/demo/live`);
    await page.getByLabel('Username').fill(me.body.username);
    await page.getByLabel('Password').fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .locator('#projects')
      .getByRole('button', { name: 'Website redesign for ACME' })
      .click();
    await page.locator('#project-section').waitFor({ state: 'visible' });
    await page.getByRole('button', { name: 'Share' }).click();
    const link = page.locator('#share-link-url');
    await link.waitFor({ state: 'visible' });
    const href = await link.getAttribute('href');
    expect(href).toMatch(/\/shared\/[A-Za-z0-9_-]{43}$/);
    const opened = await fetch(href!);
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain('<title>Website redesign for ACME</title>');
    const listed = await api.get(`${project}/links`, { token });
    expect(listed.body).toHaveLength(2);
    await context.close();
  });
});
