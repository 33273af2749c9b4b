import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Browser, Page } from 'playwright-core';
import { startTestApp } from '../support/test-app';
import { describeWithChromium, launchChromium } from './chromium';

/** Generous: a stream and a service on a busy 2-core machine. */
const WAIT_MS = 30_000;

/**
 * The editor's own page, as the single-page app would be served from its own origin: it calls
 * the service with nothing but `fetch` and `EventSource`, as a browser allows a page of that
 * origin to. `call` answers what a script may read of the answer (a refused request: the
 * error's message); `listen` opens a stream and collects its events.
 */
const EDITOR_PAGE = `<!doctype html><title>Editor</title><script>
const api = new URL(location.href).searchParams.get('api');
window.call = async (method, path, { token, body, headers = {} } = {}) => {
  const sent = { ...headers };
  if (token) sent.Authorization = 'Bearer ' + token;
  if (body !== undefined) sent['Content-Type'] = 'application/json';
  try {
    const res = await fetch(api + path, {
      method,
      headers: sent,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const names = ['content-type', 'etag', 'location', 'project-revision', 'x-request-id'];
    return {
      status: res.status,
      headers: Object.fromEntries(names.map((name) => [name, res.headers.get(name)])),
      text: await res.text(),
    };
  } catch (error) {
    return { status: 0, headers: {}, text: '', error: String(error) };
  }
};
window.events = [];
window.listen = (path) => new Promise((resolve, reject) => {
  const source = new EventSource(api + path);
  for (const type of ['change', 'reset']) {
    source.addEventListener(type, (event) => {
      window.events.push({ type, id: event.lastEventId, data: event.data });
    });
  }
  source.onopen = () => resolve();
  source.onerror = () => reject(new Error('the stream failed to open'));
});
</script>`;

interface Answer {
  status: number;
  headers: Record<string, string | null>;
  text: string;
  error?: string;
}

interface Heard {
  type: string;
  id: string;
  data: string;
}

interface EditorWindow {
  call(
    method: string,
    path: string,
    options?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<Answer>;
  listen(path: string): Promise<void>;
  events: Heard[];
}

/** A server of pages on a port of its own: an origin of its own. */
async function pageOrigin(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(EDITOR_PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, origin: `http://127.0.0.1:${port}` };
}

/**
 * The proposal editor is a single-page app on another origin than the service. What it needs
 * of CORS is proven in a browser, which is what enforces it: preflights for its JSON bodies and
 * headers, the answer headers it reads (`ETag`, `Location`, `Project-Revision`), `304`, `412`
 * as problem+json, and the event stream through a ticket. A page of an origin the service does
 * not list can read nothing, and its writes never reach the service.
 */
describeWithChromium('an editor on another origin, in a browser', () => {
  let browser: Browser;
  let app: NestFastifyApplication;
  let api: string;
  const servers: Server[] = [];
  let editorOrigin: string;
  let strangerOrigin: string;

  beforeAll(async () => {
    const editor = await pageOrigin();
    const stranger = await pageOrigin();
    servers.push(editor.server, stranger.server);
    editorOrigin = editor.origin;
    strangerOrigin = stranger.origin;
    app = await startTestApp({ CORS_ORIGINS: editorOrigin });
    const address = app.getHttpServer().address() as AddressInfo;
    api = `http://127.0.0.1:${address.port}`;
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    for (const server of servers) server.close();
  });

  async function openPage(origin: string): Promise<Page> {
    const page = await browser.newPage();
    page.setDefaultTimeout(WAIT_MS);
    await page.goto(`${origin}/?api=${encodeURIComponent(api)}`);
    return page;
  }

  function call(
    page: Page,
    method: string,
    path: string,
    options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Answer> {
    return page.evaluate(([m, p, o]) => (globalThis as unknown as EditorWindow).call(m, p, o), [
      method,
      path,
      options,
    ] as const);
  }

  /** A new account, signed up and signed in from `page`: its token. */
  async function signUp(page: Page, prefix: string): Promise<string> {
    const credentials = {
      username: `${prefix}-${randomBytes(6).toString('hex')}`,
      password: 'correct horse battery staple',
    };
    expect((await call(page, 'POST', '/accounts', { body: credentials })).status).toBe(201);
    const signedIn = await call(page, 'POST', '/accounts/auth/token', { body: credentials });
    expect(signedIn.status).toBe(200);
    return (JSON.parse(signedIn.text) as { token: string }).token;
  }

  /** The `change` events heard so far, once there are `count` of them. */
  async function heard(page: Page, count: number): Promise<Heard[]> {
    await page.waitForFunction(
      (n) => (globalThis as unknown as EditorWindow).events.length >= n,
      count,
    );
    return page.evaluate(() => (globalThis as unknown as EditorWindow).events);
  }

  it('signs in, writes under If-Match, reads the headers it needs, hears its changes and undoes', async () => {
    const page = await openPage(editorOrigin);
    try {
      const token = await signUp(page, 'editor');

      const project = await call(page, 'POST', '/projects', { token, body: { title: 'Offer' } });
      expect(project.status).toBe(201);
      const projectId = (JSON.parse(project.text) as { _id: string })._id;
      expect(project.headers.location).toBe(`/projects/${projectId}`);
      expect(project.headers.etag).toMatch(/^"/);
      expect(project.headers['x-request-id']).toMatch(/\S/);

      const newId = async (path: string, body: object) => {
        const created = await call(page, 'POST', path, { token, body });
        expect(created.status).toBe(201);
        expect(created.headers.location).toMatch(new RegExp(`^${path}/`));
        return created;
      };
      const blockPath = `/projects/${projectId}/blocks`;
      const block = JSON.parse((await newId(blockPath, { description: 'Intro' })).text);
      const rowPath = `${blockPath}/${block._id}/rows`;
      const row = JSON.parse((await newId(rowPath, {})).text);
      const columnPath = `${rowPath}/${row._id}/columns`;
      const column = JSON.parse((await newId(columnPath, { size: 12 })).text);
      const contentsPath = `${columnPath}/${column._id}/contents`;
      const created = await newId(contentsPath, { type: 'text', data: { html: '<p>One</p>' } });
      // The project's revision after each of the five writes, readable by the script.
      expect(created.headers['project-revision']).toBe('5');
      const contentPath = created.headers.location as string;

      // A reload that finds nothing new: 304, seen as such by the script.
      const tree = await call(page, 'GET', `/projects/${projectId}`, { token });
      expect(tree.status).toBe(200);
      const unchanged = await call(page, 'GET', `/projects/${projectId}`, {
        token,
        headers: { 'If-None-Match': tree.headers.etag as string },
      });
      expect(unchanged.status).toBe(304);

      // The stream, through a ticket: EventSource cannot send the token.
      const ticket = await call(page, 'POST', `/projects/${projectId}/events/tickets`, { token });
      expect(ticket.status).toBe(201);
      const { ticket: value } = JSON.parse(ticket.text) as { ticket: string };
      await page.evaluate(
        (path) => (globalThis as unknown as EditorWindow).listen(path),
        `/projects/${projectId}/events?ticket=${encodeURIComponent(value)}`,
      );

      // An autosave under the tag it read: it goes through, and the stream tells of it. A
      // second tab's save with that same tag: 412, a problem the script can read.
      const saveUnder = (tag: string | null, html: string) =>
        call(page, 'PUT', contentPath, {
          token,
          body: { type: 'text', data: { html } },
          headers: { 'If-Match': tag as string },
        });
      const saved = await saveUnder(created.headers.etag, '<p>Two</p>');
      expect(saved.status).toBe(200);
      expect(saved.headers['project-revision']).toBe('6');
      const stale = await saveUnder(created.headers.etag, '<p>Lost</p>');
      expect(stale.status).toBe(412);
      expect(stale.headers['content-type']).toContain('application/problem+json');

      // Undo: the restore of revision 5, under the project's tag.
      const current = await call(page, 'GET', `/projects/${projectId}`, { token });
      expect(JSON.parse(current.text).revision).toBe(6);
      const undone = await call(page, 'POST', `/projects/${projectId}/revisions/5/restore`, {
        token,
        headers: { 'If-Match': current.headers.etag as string },
      });
      expect(undone.status).toBe(200);
      expect(undone.headers['project-revision']).toBe('7');

      const events = await heard(page, 2);
      expect(events.map(({ type, id }) => [type, id])).toEqual([
        ['change', '6'],
        ['change', '7'],
      ]);
      expect(JSON.parse(events[0].data)).toMatchObject({
        revision: 6,
        operation: 'content.update',
        path: contentPath,
      });
      expect(JSON.parse(events[1].data)).toMatchObject({
        revision: 7,
        operation: 'project.restore',
      });
      const after = await call(page, 'GET', contentPath, { token });
      expect(JSON.parse(after.text).data).toEqual({ html: '<p>One</p>' });
    } finally {
      await page.close();
    }
  }, 120_000);

  it('lets a page of an origin it does not list read nothing, and write nothing', async () => {
    const editor = await openPage(editorOrigin);
    const stranger = await openPage(strangerOrigin);
    try {
      const token = await signUp(editor, 'owner');

      // The page of the unlisted origin holds the token (as a page that stole it would).
      const read = await call(stranger, 'GET', '/projects', { token });
      expect(read.status).toBe(0);
      expect(read.error).toMatch(/fetch/i);
      const write = await call(stranger, 'POST', '/projects', { token, body: { title: 'No' } });
      expect(write.status).toBe(0);

      // Its preflight was refused, so the write never reached the service.
      const projects = await call(editor, 'GET', '/projects', { token });
      expect(projects.status).toBe(200);
      expect(JSON.parse(projects.text)).toEqual([]);
    } finally {
      await editor.close();
      await stranger.close();
    }
  }, 60_000);
});
