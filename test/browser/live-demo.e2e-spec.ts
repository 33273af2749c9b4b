import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { endEventStreams } from '../../apps/api/src/common/http/event-stream-response';
import { LIVE_DEMO_CSP } from '../../apps/api/src/demo/live-demo';
import { Api, startTestApp } from '../support/test-app';
import { describeWithChromium, launchChromium } from './chromium';
import { repoRoot } from './repo-root';

const ARTIFACTS = join(repoRoot(), 'test', 'artifacts');
/** Generous: two pages, a stream each and a service on a busy 2-core machine. */
const WAIT_MS = 30_000;

let app: NestFastifyApplication;
let api: Api;
let base: string;

beforeAll(async () => {
  app = await startTestApp();
  api = new Api(app);
  const address = app.getHttpServer().address();
  if (!address || typeof address === 'string') throw new Error('the app is not listening');
  base = `http://127.0.0.1:${address.port}`;
}, 60_000);

afterAll(async () => {
  await app?.close();
});

// Plain fetch, not the Api client: the demo is no operation of the OpenAPI document (a plain
// Fastify route, like the problem pages), which the client's validator would hold to a 404.
describe('the live demo page, served', () => {
  it('answers GET /demo/live with the page, without a token, under its own CSP', async () => {
    const page = await fetch(`${base}/demo/live`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toBe(LIVE_DEMO_CSP);
    expect(LIVE_DEMO_CSP).toContain("script-src 'self'");
    expect(LIVE_DEMO_CSP).toContain("connect-src 'self'");
    expect(LIVE_DEMO_CSP).not.toContain('unsafe-inline');
    // The API's other security headers stay.
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const html = await page.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<script type="module" src="/demo/live.js"></script>');
    expect(html).toContain('<link rel="stylesheet" href="/demo/live.css" />');
    // No inline script or style, which the policy would refuse.
    expect(html).not.toMatch(/<script>|<style|style=/i);
  });

  it('serves its script and style under /demo/, and nothing else there', async () => {
    const script = await fetch(`${base}/demo/live.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toContain('new EventSource(');
    const style = await fetch(`${base}/demo/live.css`);
    expect(style.status).toBe(200);
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8');
    await style.arrayBuffer();

    const unknown = await fetch(`${base}/demo/live.ts`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/problem+json');
    await unknown.arrayBuffer();
    // The API keeps its own policy.
    const health = await fetch(`${base}/health/live`);
    expect(health.headers.get('content-security-policy')).toBe(
      "default-src 'none';frame-ancestors 'none'",
    );
    await health.arrayBuffer();
  });
});

describeWithChromium('the live demo, in two browser pages', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  interface DemoPage {
    name: string;
    context: BrowserContext;
    page: Page;
    log: string[];
    /** The URLs of the event streams it opened, in order. */
    streams: URL[];
  }

  /** A page of its own browser context (its own cookies and storage) on the demo. */
  async function openDemo(name: string): Promise<DemoPage> {
    const context = await browser.newContext({ viewport: { width: 760, height: 760 } });
    const page = await context.newPage();
    page.setDefaultTimeout(WAIT_MS);
    const log: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') log.push(`${name} console: ${message.text()}`);
    });
    page.on('pageerror', (error) => log.push(`${name} page error: ${error.message}`));
    const streams: URL[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith('/events')) streams.push(url);
    });
    // The page needs nothing but this service.
    await page.route('**/*', (route) =>
      route.request().url().startsWith(`${base}/`) ? route.continue() : route.abort(),
    );
    await page.goto(`${base}/demo/live`);
    // Still there at the end: the page was never reloaded.
    await page.evaluate('window.loadedOnce = true');
    return { name, context, page, log, streams };
  }

  async function signIn(page: Page, username: string, password: string): Promise<void> {
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#projects-section').waitFor({ state: 'visible' });
  }

  /**
   * Waits until the page shows `revision`, streaming, then returns the texts of its contents in
   * tree order: the status line and the tree are rendered together, from one read.
   */
  async function contentsAt(page: Page, revision: number): Promise<string[]> {
    await page
      .locator('#live-status')
      .filter({ hasText: new RegExp(`^live · revision ${revision}$`) })
      .waitFor();
    return page.locator('#tree .content').allTextContents();
  }

  it("shows one page's edits in the other, live, and undoes them in both", async () => {
    const username = `live-${randomBytes(6).toString('hex')}`;
    const password = 'correct horse battery staple';
    expect((await api.post('/accounts', { username, password })).status).toBe(201);
    const token = (await api.post('/accounts/auth/token', { username, password })).body
      .token as string;
    mkdirSync(ARTIFACTS, { recursive: true });

    const pages: DemoPage[] = [];
    try {
      pages.push(await openDemo('A'), await openDemo('B'));
      const [a, b] = pages.map((demo) => demo.page);

      // A signs in and makes a project: a block, a row and a 12-wide column (revision 4).
      await signIn(a, username, password);
      await a.locator('#new-project-title').fill('Live demo');
      await a.getByRole('button', { name: 'New project' }).click();
      expect(await contentsAt(a, 4)).toEqual([]);
      await a.locator('.column-size', { hasText: 'size 12' }).waitFor();

      // B signs in and opens it from the list.
      await signIn(b, username, password);
      await b.locator('#projects').getByRole('button', { name: 'Live demo' }).click();
      expect(await contentsAt(b, 4)).toEqual([]);
      const projects = await api.get('/projects', { token });
      const projectId = projects.body[0]._id as string;

      // A adds a text; B shows it, and so does A, both from the event stream.
      await a.getByLabel('Text to add').fill('Hello from A <b>not bold</b>');
      await a.getByRole('button', { name: 'Add text content' }).click();
      expect(await contentsAt(b, 5)).toEqual(['Hello from A <b>not bold</b>']);
      expect(await contentsAt(a, 5)).toEqual(['Hello from A <b>not bold</b>']);

      // A edits it; B follows.
      await a.getByLabel('New text').fill('Edited in A');
      await a.getByRole('button', { name: 'Edit first content' }).click();
      expect(await contentsAt(b, 6)).toEqual(['Edited in A']);

      // B undoes: revision 7 restores revision 5, in both pages.
      await b.getByRole('button', { name: 'Undo' }).click();
      expect(await contentsAt(b, 7)).toEqual(['Hello from A <b>not bold</b>']);
      expect(await contentsAt(a, 7)).toEqual(['Hello from A <b>not bold</b>']);
      // The list of revisions is read after the tree: wait for it, then check its head.
      for (const page of [a, b]) {
        await page.locator('#revisions li').first().filter({ hasText: /^r7 / }).waitFor();
        expect(await page.locator('#revisions li').first().textContent()).toMatch(
          /^r7 project\.restore at /,
        );
      }
      const restored = await api.get(`/projects/${projectId}`, { token });
      expect(restored.body.revision).toBe(7);

      await screenshotSideBySide(pages, join(ARTIFACTS, 'live-demo-two-pages.png'));

      // A misses a change (its reads are held back), then presses Undo: 412, said plainly.
      const held: Route[] = [];
      const projectRead = (url: URL) => url.pathname === `/projects/${projectId}`;
      await a.route(projectRead, (route) => {
        if (route.request().method() === 'GET') held.push(route);
        else void route.continue();
      });
      const first = restored.body.blocks[0].rows[0].columns[0].contents[0]._id as string;
      const contentPath =
        `/projects/${projectId}/blocks/${restored.body.blocks[0]._id}` +
        `/rows/${restored.body.blocks[0].rows[0]._id}` +
        `/columns/${restored.body.blocks[0].rows[0].columns[0]._id}/contents/${first}`;
      const elsewhere = { type: 'text', data: { html: '<p>Changed elsewhere</p>' } };
      expect((await api.put(contentPath, elsewhere, { token })).status).toBe(200);
      expect(await contentsAt(b, 8)).toEqual(['Changed elsewhere']);
      await a.getByRole('button', { name: 'Undo' }).click();
      await a
        .locator('#notice.error', { hasText: 'Someone else changed the project meanwhile' })
        .waitFor();
      expect((await api.get(`/projects/${projectId}`, { token })).body.revision).toBe(8);
      await a.screenshot({ path: join(ARTIFACTS, 'live-demo-conflict.png'), fullPage: true });

      // Its reads go through again: it catches up.
      await a.unroute(projectRead);
      for (const route of held) await route.continue();
      expect(await contentsAt(a, 8)).toEqual(['Changed elsewhere']);

      // The service ends the streams (as a restart would): each page opens a new one, with a
      // new ticket, after the last revision it received, and misses nothing.
      expect(endEventStreams(app.getHttpAdapter().getInstance())).toBeGreaterThanOrEqual(2);
      const after = { type: 'text', data: { html: '<p>After the reconnection</p>' } };
      expect((await api.put(contentPath, after, { token })).status).toBe(200);
      for (const demo of pages) {
        expect(await contentsAt(demo.page, 9)).toEqual(['After the reconnection']);
        const [before, reconnected] = demo.streams.slice(-2).map((url) => url.searchParams);
        expect(reconnected.get('lastEventId')).toBe('8');
        expect(reconnected.get('ticket')).not.toBe(before.get('ticket'));
      }

      for (const page of [a, b]) expect(await page.evaluate('window.loadedOnce')).toBe(true);
      expect(
        pages.flatMap((demo) => demo.log.filter((line) => line.includes('page error'))),
      ).toEqual([]);
    } catch (error) {
      throw await failedIn(pages, 'live-demo-failure', error);
    } finally {
      for (const demo of pages) await demo.context.close();
    }
  }, 180_000);

  it('shows two accounts each other and where they are, on a project one shares with the other', async () => {
    const password = 'correct horse battery staple';
    const names = ['ada', 'grace'].map((name) => `${name}-${randomBytes(4).toString('hex')}`);
    for (const username of names) {
      expect((await api.post('/accounts', { username, password })).status).toBe(201);
    }
    const [ada, grace] = names;
    mkdirSync(ARTIFACTS, { recursive: true });

    const pages: DemoPage[] = [];
    try {
      pages.push(await openDemo('Ada'), await openDemo('Grace'));
      const [a, b] = pages.map((demo) => demo.page);

      // Ada makes a project and shares it with Grace, as an editor.
      await signIn(a, ada, password);
      await a.locator('#new-project-title').fill('Team proposal');
      await a.getByRole('button', { name: 'New project' }).click();
      expect(await contentsAt(a, 4)).toEqual([]);
      await a.getByLabel('Account to add').fill(grace);
      await a.getByLabel('Role').selectOption('editor');
      await a.getByRole('button', { name: 'Add member' }).click();
      await a.locator('#members li', { hasText: `${grace}: editor` }).waitFor();

      // Grace finds it among her projects, and opens it.
      await signIn(b, grace, password);
      await b
        .locator('#projects li', { hasText: 'editor' })
        .getByRole('button', { name: 'Team proposal' })
        .click();
      expect(await contentsAt(b, 4)).toEqual([]);

      // Each sees both, from the presence events of its stream.
      for (const [page, me] of [
        [a, ada],
        [b, grace],
      ] as const) {
        await page.locator('#present li').nth(1).waitFor();
        expect(await page.locator('#present li').allTextContents()).toEqual([
          `${ada}${me === ada ? ' (you)' : ''}: viewing in the project`,
          `${grace}${me === grace ? ' (you)' : ''}: viewing in the project`,
        ]);
      }

      // Ada says she is at the block: Grace sees her marker on it.
      await a.locator('#tree .block > h3').first().click();
      await b.locator('#tree .block > .markers .presence-marker', { hasText: ada }).waitFor();
      await b.locator('#present li', { hasText: `${ada}: editing at a block` }).waitFor();

      // Ada adds a text; Grace sees it, and says she is at it: Ada sees her marker there.
      await a.getByLabel('Text to add').fill('Our approach');
      await a.getByRole('button', { name: 'Add text content' }).click();
      expect(await contentsAt(b, 5)).toEqual(['Our approach']);
      await b.locator('#tree .content').first().click();
      await a.locator('#tree .content-slot .presence-marker', { hasText: grace }).waitFor();
      await a.locator('#present li', { hasText: `${grace}: editing at a content` }).waitFor();

      // Grace edits it; Ada follows.
      await b.getByLabel('New text').fill('Our approach, revised by Grace');
      await b.getByRole('button', { name: 'Edit first content' }).click();
      expect(await contentsAt(a, 6)).toEqual(['Our approach, revised by Grace']);
      // Both markers are still where they were said: the nodes are still there.
      await a.locator('#tree .content-slot .presence-marker', { hasText: grace }).waitFor();
      await b.locator('#tree .block > .markers .presence-marker', { hasText: ada }).waitFor();

      await screenshotSideBySide(pages, join(ARTIFACTS, 'live-demo-presence.png'));
      expect(
        pages.flatMap((demo) => demo.log.filter((line) => line.includes('page error'))),
      ).toEqual([]);
    } catch (error) {
      throw await failedIn(pages, 'live-demo-presence-failure', error);
    } finally {
      for (const demo of pages) await demo.context.close();
    }
  }, 180_000);

  /**
   * A test's failure, with a screenshot of each page (`<prefix>-<name>.png`) and what the
   * browser reported added to its message.
   */
  async function failedIn(pages: DemoPage[], prefix: string, error: unknown): Promise<unknown> {
    for (const demo of pages) {
      await demo.page
        .screenshot({ path: join(ARTIFACTS, `${prefix}-${demo.name}.png`), fullPage: true })
        .catch(() => undefined);
    }
    const log = pages.flatMap((demo) => demo.log);
    if (error instanceof Error && log.length > 0) {
      error.message += `\n\nThe browser reported:\n${log.join('\n')}`;
    }
    return error;
  }

  /** One picture of the pages side by side, each under its name. */
  async function screenshotSideBySide(pages: DemoPage[], path: string): Promise<void> {
    const shots = await Promise.all(
      pages.map(async (demo) => ({
        name: demo.name,
        png: (await demo.page.screenshot({ fullPage: true })).toString('base64'),
      })),
    );
    const sheet = await browser.newPage({ viewport: { width: 1560, height: 800 } });
    try {
      const figures = shots
        .map(
          ({ name, png }) =>
            `<figure><figcaption>Page ${name}</figcaption><img src="data:image/png;base64,${png}"></figure>`,
        )
        .join('');
      await sheet.setContent(
        '<style>body{display:flex;gap:16px;margin:8px;font:16px sans-serif}' +
          'figure{margin:0;border:1px solid #999}figcaption{padding:4px 8px;background:#eee}</style>' +
          figures,
        { waitUntil: 'load' },
      );
      await sheet.screenshot({ path, fullPage: true });
    } finally {
      await sheet.close();
    }
  }
});
