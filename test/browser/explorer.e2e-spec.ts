import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Browser, Locator, Page } from 'playwright-core';
import { Api, startTestApp } from '../support/test-app';
import { describeWithChromium, launchChromium } from './chromium';
import { repoRoot } from './repo-root';

const ARTIFACTS = join(repoRoot(), 'test', 'artifacts');

interface OpenApiOperation {
  operationId: string;
  tags?: string[];
  parameters?: Array<{ name: string; in: string }>;
}
type OpenApiDocument = { paths: Record<string, Record<string, OpenApiOperation>> };

/**
 * Swagger UI's element for one operation: `operations-<tag>-<operationId>`, as it derives it
 * (spaces become `_`). Taken from the served document, so renaming an operation keeps the test.
 */
function findOperation(document: OpenApiDocument, method: string, path: string) {
  const operation = document.paths[path]?.[method];
  if (!operation) throw new Error(`the document has no ${method.toUpperCase()} ${path}`);
  const escape = (s: string) => s.trim().replace(/\s/g, '_');
  const tag = operation.tags?.[0] ?? 'default';
  return {
    elementId: `operations-${escape(tag)}-${escape(operation.operationId)}`,
    pathParameters: (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
  };
}

describeWithChromium('the OpenAPI explorer, used as a person would', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let base: string;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    const address = app.getHttpServer().address();
    if (!address || typeof address === 'string') throw new Error('the app is not listening');
    base = `http://127.0.0.1:${address.port}`;
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  /** Expands an operation, presses "Try it out" and returns its element. */
  async function tryOut(id: string): Promise<Locator> {
    const operation = page.locator(`[id="${id}"]`);
    await operation.locator('button.opblock-summary-control').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    return operation;
  }

  /** Presses Execute and returns the status code and body the explorer shows. */
  async function execute(operation: Locator): Promise<{ status: string; body: string }> {
    await operation.getByRole('button', { name: 'Execute' }).click();
    const response = operation.locator('.live-responses-table tbody tr.response').first();
    const status = response.locator('td.response-col_status');
    await status.waitFor();
    const body = response.locator('td.response-col_description .microlight').first();
    await body.waitFor();
    return { status: (await status.innerText()).trim(), body: await body.innerText() };
  }

  /** A page for the explorer, which fetches nothing from elsewhere, and what the browser says. */
  async function openExplorer() {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(30_000);
    // What the page says goes into the failure message: a blank explorer is otherwise a mystery.
    const browserLog: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') browserLog.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => browserLog.push(`page error: ${error.message}`));
    // Everything the explorer needs is served by the app: nothing else may be fetched.
    await page.route('**/*', (route) =>
      route.request().url().startsWith(`${base}/`) ? route.continue() : route.abort(),
    );
    mkdirSync(ARTIFACTS, { recursive: true });
    return { context, browserLog };
  }

  /** The body the explorer fills in for "Try it out": the operation's example. */
  async function exampleBody(operation: Locator): Promise<Record<string, unknown>> {
    return JSON.parse(await operation.locator('textarea.body-param__text').inputValue()) as Record<
      string,
      unknown
    >;
  }

  it('chains its examples: sign up, a token for that user, Authorize, a project', async () => {
    const document = (await api.get<OpenApiDocument>('/docs/openapi.json')).body;
    const id = (method: string, path: string) => findOperation(document, method, path).elementId;
    const { context, browserLog } = await openExplorer();
    try {
      await page.goto(`${base}/docs`);
      await page.locator(`[id="${id('post', '/accounts')}"]`).waitFor();

      // 1. Sign up with the example as it stands.
      const signUp = await tryOut(id('post', '/accounts'));
      const credentials = await exampleBody(signUp);
      const created = await execute(signUp);
      expect(created.status).toBe('201');
      await signUp.locator('button.opblock-summary-control').click();

      // 2. A token with the token operation's own example: the same user.
      const token = await tryOut(id('post', '/accounts/auth/token'));
      expect(await exampleBody(token)).toEqual(credentials);
      const issued = await execute(token);
      expect(issued.status).toBe('200');
      const bearer = (JSON.parse(issued.body) as { token: string }).token;
      await token.locator('button.opblock-summary-control').click();

      // 3. Authorize with it.
      await page.locator('.auth-wrapper button.authorize').click();
      const dialog = page.locator('.modal-ux');
      await dialog.locator('#auth-bearer-value').fill(bearer);
      await dialog.getByRole('button', { name: 'Apply credentials' }).click();
      await dialog.getByRole('button', { name: 'Remove authorization' }).waitFor();
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });

      // 4. A project, with the create operation's example as it stands.
      const createProject = await tryOut(id('post', '/projects'));
      const project = await execute(createProject);
      expect(project.status).toBe('201');
      const body = JSON.parse(project.body) as { _id: string; title: string };
      // The example, as the contract answers it: a column's size is read back as a string.
      const answered = JSON.parse(JSON.stringify(await exampleBody(createProject)), (key, value) =>
        key === 'size' && typeof value === 'number' ? String(value) : (value as unknown),
      ) as object;
      expect(body).toMatchObject(answered);
      expect(await createProject.locator('.curl-command').innerText()).toContain(
        `Authorization: Bearer ${bearer}`,
      );

      // It is that user's project, as the API sees it.
      const me = await api.get('/accounts/auth/me', { token: bearer });
      expect(me.body.username).toBe(credentials.username);
      expect((await api.get(`/projects/${body._id}`, { token: bearer })).status).toBe(200);

      await createProject.locator('.live-responses-table').scrollIntoViewIfNeeded();
      await page.screenshot({
        path: join(ARTIFACTS, 'explorer-chained-examples.png'),
        fullPage: true,
      });
      await createProject.screenshot({ path: join(ARTIFACTS, 'explorer-create-project.png') });
    } catch (error) {
      await page.screenshot({
        path: join(ARTIFACTS, 'explorer-chained-failure.png'),
        fullPage: true,
      });
      if (error instanceof Error && browserLog.length > 0) {
        error.message += `\n\nThe browser reported:\n${browserLog.join('\n')}`;
      }
      throw error;
    } finally {
      await context.close();
    }
  }, 120_000);

  it('gets a token, authorises with it and creates a column of size 6', async () => {
    const username = `explorer-${randomBytes(6).toString('hex')}`;
    const password = 'correct horse battery staple';
    expect((await api.post('/accounts', { username, password })).status).toBe(201);
    const document = (await api.get<OpenApiDocument>('/docs/openapi.json')).body;
    const tokenOperation = findOperation(document, 'post', '/accounts/auth/token').elementId;
    const columnsPath = '/projects/{projectId}/blocks/{blockId}/rows/{rowId}/columns';
    const createColumn = findOperation(document, 'post', columnsPath);
    // Without them the explorer shows no fields for the ids, and a person cannot go on.
    expect({
      [`POST ${columnsPath} path parameters`]: [...createColumn.pathParameters].sort(),
    }).toEqual({ [`POST ${columnsPath} path parameters`]: ['blockId', 'projectId', 'rowId'] });

    const { context, browserLog } = await openExplorer();
    try {
      await page.goto(`${base}/docs`);
      await page.locator(`[id="${tokenOperation}"]`).waitFor();

      // 1. POST /accounts/auth/token: Try it out, the body, Execute; the token from the answer.
      const token = await tryOut(tokenOperation);
      await token.locator('textarea.body-param__text').fill(JSON.stringify({ username, password }));
      const issued = await execute(token);
      expect(issued.status).toBe('200');
      const bearer = (JSON.parse(issued.body) as { token: string }).token;
      expect(bearer).toEqual(expect.any(String));
      await token.locator('button.opblock-summary-control').click(); // collapse it again

      // 2. Authorize: paste the token, apply, close.
      await page.locator('.auth-wrapper button.authorize').click();
      const dialog = page.locator('.modal-ux');
      await dialog.locator('#auth-bearer-value').fill(bearer);
      await dialog.getByRole('button', { name: 'Apply credentials' }).click();
      await dialog.getByRole('button', { name: 'Remove authorization' }).waitFor();
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });

      // 3. A project, a block and a row through the API, with the token the explorer issued.
      const created = async (path: string, body: object) => {
        const response = await api.post(path, body, { token: bearer });
        expect(response.status).toBe(201);
        return response.body._id as string;
      };
      const projectId = await created('/projects', { title: 'Explorer' });
      const blockId = await created(`/projects/${projectId}/blocks`, { description: 'Intro' });
      const rowId = await created(`/projects/${projectId}/blocks/${blockId}/rows`, {});

      // 4. The create-column operation: path parameters, the body, Execute.
      const column = await tryOut(createColumn.elementId);
      const ids: Record<string, string> = { projectId, blockId, rowId };
      for (const [name, value] of Object.entries(ids)) {
        await column
          .locator(`tr[data-param-name="${name}"][data-param-in="path"] input`)
          .fill(value);
      }
      await column.locator('textarea.body-param__text').fill('{"size": 6}');
      const answer = await execute(column);
      expect(answer.status).toBe('201');
      expect(answer.body).toContain('"size": "6"');
      expect(JSON.parse(answer.body)).toEqual({ _id: expect.any(String), size: '6', contents: [] });
      // The request the explorer sent carried the token it was given.
      expect(await column.locator('.curl-command').innerText()).toContain(
        `Authorization: Bearer ${bearer}`,
      );

      // The column exists, as the API sees it.
      const row = await api.get(`/projects/${projectId}/blocks/${blockId}/rows/${rowId}`, {
        token: bearer,
      });
      expect(row.body.columns).toEqual([JSON.parse(answer.body)]);

      await column.locator('.live-responses-table').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(ARTIFACTS, 'explorer.png'), fullPage: true });
      // The same, only the operation: readable at a glance.
      await column.screenshot({ path: join(ARTIFACTS, 'explorer-create-column.png') });
    } catch (error) {
      await page.screenshot({ path: join(ARTIFACTS, 'explorer-failure.png'), fullPage: true });
      if (error instanceof Error && browserLog.length > 0) {
        error.message += `\n\nThe browser reported:\n${browserLog.join('\n')}`;
      }
      throw error;
    } finally {
      await context.close();
    }
  }, 120_000);
});
