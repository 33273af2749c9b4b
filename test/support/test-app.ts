import { randomBytes } from 'node:crypto';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../../apps/api/src/bootstrap/create-app';
import { loadConfig } from '../../apps/api/src/config/load-config';
import { MetricsServer } from '../../apps/api/src/metrics/metrics-server';
import { documentedResponseCheck } from './openapi-validator';

/**
 * The real application on the run's test database, listening on a free loopback port: tests
 * talk to it over a real connection like any client, not through Fastify's inject, since
 * compression, keep-alive, timeouts and the shutdown drain only exist on a real connection.
 */
export async function startTestApp(
  env: Record<string, string> = {},
): Promise<NestFastifyApplication> {
  const url = process.env.LAYOUT_TEST_DATABASE_URL;
  if (!url) throw new Error('LAYOUT_TEST_DATABASE_URL is not set: run through the e2e project');
  const config = loadConfig({
    DATABASE_URL: url,
    LOG_LEVEL: process.env.LAYOUT_TEST_LOG_LEVEL ?? 'silent',
    // Rate limiting stays on (its headers and code paths run in every test) with budgets no
    // suite reaches: every test shares 127.0.0.1, and some send hundreds of requests at once.
    // test/hardening sets small ones.
    RATE_LIMIT_ACCOUNT_MAX: '1000000',
    RATE_LIMIT_ANONYMOUS_MAX: '1000000',
    ...env,
  });
  // Silent, unless LAYOUT_TEST_LOG_LEVEL asks for the service's log lines (to debug a test).
  const app = await createApp(config, process.env.LAYOUT_TEST_LOG_LEVEL ? {} : false);
  await app.listen({ port: 0, host: '127.0.0.1' });
  // As main.ts does: with METRICS_PORT set (0 for any free port), the scrape listens too.
  if (config.metrics.port !== undefined) await app.get(MetricsServer).listen();
  return app;
}

export interface Response<T = any> {
  status: number;
  headers: Record<string, string | undefined>;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Sent as is, instead of a JSON-encoded body. */
  raw?: string | Buffer;
}

/** A fetch response's body as text, and parsed when it is JSON (`undefined` when not). */
export async function readBody(
  response: globalThis.Response,
): Promise<{ text: string; body: any }> {
  const text = await response.text();
  try {
    return { text, body: text === '' ? undefined : JSON.parse(text) };
  } catch {
    return { text, body: undefined };
  }
}

/** A small HTTP client over fetch: every call goes through routing, parsing, guards, filters. */
export class Api {
  /** Where the instance listens, `http://127.0.0.1:<port>`. */
  readonly baseUrl: string;

  constructor(app: NestFastifyApplication) {
    const address = app.getHttpServer().address();
    if (!address || typeof address === 'string') throw new Error('the app is not listening');
    this.baseUrl = `http://127.0.0.1:${address.port}`;
  }

  async request<T = any>(
    method: string,
    url: string,
    options: RequestOptions = {},
  ): Promise<Response<T>> {
    // Every response must be one the served OpenAPI document describes.
    const assertDocumented = documentedResponseCheck(this.baseUrl);
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let payload: string | Buffer | undefined = options.raw;
    if (payload === undefined && options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(`${this.baseUrl}${url}`, { method, headers, body: payload });
    const { text, body } = await readBody(response);
    const received = { status: response.status, headers: Object.fromEntries(response.headers) };
    await assertDocumented({ method, url, ...received, text });
    return { ...received, body, text };
  }

  get = <T = any>(url: string, options?: RequestOptions) => this.request<T>('GET', url, options);
  post = <T = any>(url: string, body: unknown, options?: RequestOptions) =>
    this.request<T>('POST', url, { ...options, body });
  put = <T = any>(url: string, body: unknown, options?: RequestOptions) =>
    this.request<T>('PUT', url, { ...options, body });
  delete = <T = any>(url: string, options?: RequestOptions) =>
    this.request<T>('DELETE', url, options);

  /** Signs a new, unique account up and returns its token. */
  async newAccount(prefix = 'user'): Promise<{ token: string; username: string; id: string }> {
    const username = `${prefix}-${randomBytes(6).toString('hex')}`;
    const password = 'correct horse battery staple';
    const created = await this.post('/accounts', { username, password });
    if (created.status !== 201) throw new Error(`sign-up failed: ${created.text}`);
    const token = await this.post('/accounts/auth/token', { username, password });
    if (token.status !== 200) throw new Error(`token failed: ${token.text}`);
    return { token: token.body.token, username, id: created.body._id };
  }
}

/** Paths of one freshly created project > block > row > column, owned by `token`'s account. */
export interface LayoutPaths {
  project: string;
  block: string;
  row: string;
  column: string;
  columns: string;
  contents: string;
}

export async function createLayout(api: Api, token: string, columnSize = 6): Promise<LayoutPaths> {
  const expectCreated = (response: Response, what: string) => {
    if (response.status !== 201) throw new Error(`creating ${what} failed: ${response.text}`);
    return response.body._id as string;
  };
  const project = `/projects/${expectCreated(await api.post('/projects', { title: 'Proposal' }, { token }), 'project')}`;
  const block = `${project}/blocks/${expectCreated(await api.post(`${project}/blocks`, { description: 'Intro' }, { token }), 'block')}`;
  const row = `${block}/rows/${expectCreated(await api.post(`${block}/rows`, {}, { token }), 'row')}`;
  const columns = `${row}/columns`;
  const column = `${columns}/${expectCreated(await api.post(columns, { size: columnSize }, { token }), 'column')}`;
  return { project, block, row, column, columns, contents: `${column}/contents` };
}

/** Two instances on one database, as behind a load balancer, and a new account on them. */
export async function startTwoInstances(accountPrefix: string) {
  const apps = await Promise.all([startTestApp(), startTestApp()]);
  const apis = apps.map((app) => new Api(app));
  const { token } = await apis[0].newAccount(accountPrefix);
  return { apps, apis, token };
}
