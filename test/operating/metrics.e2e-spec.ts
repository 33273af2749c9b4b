import { randomUUID } from 'node:crypto';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client } from 'pg';
import { MetricsServer } from '../../apps/api/src/metrics/metrics-server';
import {
  HTTP_DURATION_BUCKETS,
  UNMATCHED_ROUTE,
} from '../../apps/api/src/metrics/request-durations';
import { openEventStream } from '../support/event-stream-client';
import { eventually } from '../support/eventually';
import { parsePrometheusText, type Sample, valueOf } from '../support/prometheus-text';
import { Api, createLayout, type LayoutPaths, startTestApp } from '../support/test-app';

/** Requests per window an account may send here: more than the test's own, and easily spent. */
const BUDGET = 60;
const DURATIONS = 'http_server_request_duration_seconds';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/**
 * The metrics listener after known traffic: every count is the traffic's, exactly. The instance
 * has a pool of two connections, so that two held writes fill it and a third waits for one.
 */
describe('metrics on a listener of their own (METRICS_PORT)', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let scrapeUrl: string;
  let owner: { token: string; username: string; id: string };
  let layout: LayoutPaths;
  let db: Client;

  async function scrape(): Promise<Sample[]> {
    const response = await fetch(scrapeUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parsePrometheusText(await response.text());
  }

  /** How many requests of `method` on `route` were answered `status`. */
  const answered = (samples: Sample[], method: string, route: string, status: number) =>
    valueOf(samples, `${DURATIONS}_count`, {
      http_request_method: method,
      http_route: route,
      http_response_status_code: String(status),
    }) ?? 0;

  beforeAll(async () => {
    app = await startTestApp({
      METRICS_PORT: '0',
      DATABASE_POOL_SIZE: '2',
      // Held writes wait for the test, not for a deadline.
      DATABASE_TIMEOUT_MS: '60000',
      RATE_LIMIT_ACCOUNT_MAX: String(BUDGET),
      RATE_LIMIT_WINDOW_SECONDS: '3600',
    });
    api = new Api(app);
    scrapeUrl = app.get(MetricsServer).url();
    owner = await api.newAccount('metrics');
    layout = await createLayout(api, owner.token);
    db = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
    await db.connect();
  });

  afterAll(async () => {
    await db?.end();
    await app?.close();
  });

  it('answers the scrape on its own port, and the API port answers 404 for it', async () => {
    expect(scrapeUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new URL(scrapeUrl).port).not.toBe(new URL(api.baseUrl).port);
    const onApi = await api.get('/metrics');
    expect(onApi.status).toBe(404);
    expect(onApi.headers['content-type']).toContain('application/problem+json');
    expect((await fetch(new URL('/other', scrapeUrl))).status).toBe(404);
    expect((await fetch(scrapeUrl, { method: 'POST' })).status).toBe(404);
    const head = await fetch(scrapeUrl, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it("counts each answer by method, route template and status, with OpenTelemetry's buckets, and never an id in a label", async () => {
    const { project } = layout;
    expect((await api.get(project, { token: owner.token })).status).toBe(200);
    expect((await api.get(project, { token: owner.token })).status).toBe(200);
    expect((await api.get(`/projects/${randomUUID()}`, { token: owner.token })).status).toBe(404);
    expect((await api.get(`/nothing/here${project}`, { token: owner.token })).status).toBe(404);

    const samples = await scrape();
    expect(answered(samples, 'POST', '/accounts', 201)).toBe(1);
    expect(answered(samples, 'POST', '/accounts/auth/token', 200)).toBe(1);
    expect(answered(samples, 'POST', '/projects', 201)).toBe(1);
    expect(answered(samples, 'POST', '/projects/:projectId/blocks', 201)).toBe(1);
    expect(answered(samples, 'POST', '/projects/:projectId/blocks/:blockId/rows', 201)).toBe(1);
    const columns = '/projects/:projectId/blocks/:blockId/rows/:rowId/columns';
    expect(answered(samples, 'POST', columns, 201)).toBe(1);
    expect(answered(samples, 'GET', '/projects/:projectId', 200)).toBe(2);
    expect(answered(samples, 'GET', '/projects/:projectId', 404)).toBe(1);
    // This path, and /metrics asked of the API port by the test before.
    expect(answered(samples, 'GET', UNMATCHED_ROUTE, 404)).toBe(2);

    const series = {
      http_request_method: 'GET',
      http_route: '/projects/:projectId',
      http_response_status_code: '200',
    };
    const buckets = samples.filter(
      (sample) =>
        sample.name === `${DURATIONS}_bucket` &&
        Object.entries(series).every(([label, value]) => sample.labels[label] === value),
    );
    expect(buckets.map((bucket) => bucket.labels.le)).toEqual([
      ...HTTP_DURATION_BUCKETS.map(String),
      '+Inf',
    ]);
    expect(buckets.at(-1)?.value).toBe(2);
    expect(valueOf(samples, `${DURATIONS}_sum`, series)).toBeGreaterThan(0);

    // Ids, names and tokens stay out of every label of every metric.
    const secrets = [owner.id, owner.username, owner.token, ...project.split('/')].filter(
      (part) => part.length > 8,
    );
    for (const { name, labels } of samples) {
      for (const value of Object.values(labels)) {
        expect({ name, value, id: UUID.test(value) }).toEqual({ name, value, id: false });
        for (const secret of secrets) expect(value).not.toContain(secret);
      }
    }
  });

  it('counts the revisions writes committed, and the units of each group commit', async () => {
    const before = await scrape();
    const { column, contents } = layout;
    const { token } = owner;
    // Changes nothing, then is refused: no revision.
    expect((await api.put(column, { size: 6 }, { token })).status).toBe(200);
    expect(
      (await api.put(column, { size: 4 }, { token, headers: { 'if-match': '"r1"' } })).status,
    ).toBe(412);
    // Two revisions, one after the other.
    const created = await api.post(
      contents,
      { type: 'text', data: { html: '<p>a</p>' } },
      { token },
    );
    expect(created.status).toBe(201);
    const content = `${contents}/${created.body._id}`;
    expect(
      (await api.put(content, { type: 'text', data: { html: '<p>b</p>' } }, { token })).status,
    ).toBe(200);
    // Eight at once: they may share transactions.
    const burst = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api.post(contents, { type: 'text', data: { html: `<p>${i}</p>` } }, { token }),
      ),
    );
    expect(burst.map((response) => response.status)).toEqual(Array(8).fill(201));

    const after = await scrape();
    const delta = (name: string, labels?: Record<string, string>) =>
      (valueOf(after, name, labels) ?? 0) - (valueOf(before, name, labels) ?? 0);
    expect(delta('layout_revisions_committed_total')).toBe(10);
    // Every unit that stood was committed, the unchanged write's included; the refused one not.
    expect(delta('layout_group_commit_units_sum')).toBe(11);
    const commits = delta('layout_group_commit_units_count');
    expect(commits).toBeGreaterThanOrEqual(4);
    expect(commits).toBeLessThanOrEqual(11);
    expect(delta('layout_group_commit_units_bucket', { le: '1' })).toBeGreaterThanOrEqual(3);
    expect(
      after
        .filter((sample) => sample.name === 'layout_group_commit_units_bucket')
        .map((sample) => sample.labels.le),
    ).toEqual(['1', '2', '3', '4', '6', '8', '12', '16', '24', '32', '+Inf']);
  });

  it('counts refusals by kind and problem type: a spent budget, a limit', async () => {
    const before = await scrape();
    const refusals = (samples: Sample[], kind: string, type: string) =>
      valueOf(samples, 'layout_refusals_total', { kind, problem_type: `/problems/${type}` });
    // Every kind is there from the start, at zero until it happens.
    expect(refusals(before, 'admission', 'too-many-concurrent-requests')).toBe(0);
    expect(refusals(before, 'rate_limit', 'rate-limited')).toBe(0);

    const spender = await api.newAccount('spender');
    for (let i = 0; i < BUDGET; i++) {
      expect((await api.get('/projects', { token: spender.token })).status).toBe(200);
    }
    for (let i = 0; i < 3; i++) {
      expect((await api.get('/projects', { token: spender.token })).status).toBe(429);
    }
    const tooWide = await api.post(layout.columns, { size: 12 }, { token: owner.token });
    expect(tooWide.status).toBe(409);

    const after = await scrape();
    expect(refusals(after, 'rate_limit', 'rate-limited')).toBe(3);
    expect(refusals(after, 'limit', 'row-width-exceeded')).toBe(
      (refusals(before, 'limit', 'row-width-exceeded') ?? 0) + 1,
    );
    expect(refusals(after, 'admission', 'too-many-concurrent-requests')).toBe(0);
    expect(answered(after, 'GET', '/projects', 429)).toBe(3);
  });

  it('shows the event streams open, and no share link opened', async () => {
    const open = async () => valueOf(await scrape(), 'layout_event_streams_open');
    expect(await open()).toBe(0);
    const stream = await openEventStream(`${api.baseUrl}${layout.project}/events`, {
      authorization: `Bearer ${owner.token}`,
    });
    expect(stream.status).toBe(200);
    await eventually(async () => (await open()) === 1, 'the stream counted open');
    stream.close();
    await eventually(async () => (await open()) === 0, 'the stream counted closed');
    expect(valueOf(await scrape(), 'layout_share_link_opens_total')).toBe(0);
  });

  it("shows the pool's connections in use and the requests waiting for one", async () => {
    const pool = { db_client_connection_pool_name: 'layout-service' };
    const poolState = async () => {
      const samples = await scrape();
      return {
        used: valueOf(samples, 'db_client_connection_count', {
          ...pool,
          db_client_connection_state: 'used',
        }),
        waiting: valueOf(samples, 'db_client_connection_pending_requests', pool),
        max: valueOf(samples, 'db_client_connection_max', pool),
      };
    };
    expect((await poolState()).max).toBe(2);
    // Three accounts' writes behind the test's lock on their projects: two hold the pool's
    // connections while they wait for the lock, the third waits for a connection.
    const writers = await Promise.all(
      ['held-1', 'held-2', 'held-3'].map(async (prefix) => {
        const { token } = await api.newAccount(prefix);
        const created = await api.post('/projects', { title: prefix }, { token });
        return { token, project: `/projects/${created.body._id}`, id: created.body._id as string };
      }),
    );
    await db.query('BEGIN');
    await db.query('SELECT 1 FROM projects WHERE id = ANY($1::uuid[]) FOR UPDATE', [
      writers.map((writer) => writer.id),
    ]);
    const writes = writers.map((writer) =>
      api.put(writer.project, { title: 'renamed' }, { token: writer.token }),
    );
    try {
      await eventually(async () => {
        const { used, waiting } = await poolState();
        return used === 2 && waiting === 1;
      }, 'two connections in use and one request waiting');
    } finally {
      await db.query('COMMIT');
    }
    expect((await Promise.all(writes)).map((response) => response.status)).toEqual([200, 200, 200]);
    await eventually(
      async () => (await poolState()).waiting === 0,
      'no request waiting for a connection',
    );
  });

  it("includes the process's and Node.js's own metrics", async () => {
    const names = new Set((await scrape()).map((sample) => sample.name));
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
      'nodejs_gc_duration_seconds_count',
    ]) {
      expect(names).toContain(name);
    }
  });
});
