import { connect } from 'node:net';
import { jest } from '@jest/globals';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Client, type Pool } from 'pg';
import { DATABASE_POOL } from '../../apps/api/src/database/database-pool';
import { Api } from '../support/test-app';
import { closedPort, PASSWORD, startHardenedApp } from './hardening-support';

// Sign-ups and sign-ins hash passwords (scrypt): slow on a busy machine.
jest.setTimeout(60_000);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface LogLine {
  level: string;
  time: string;
  msg?: string;
  context?: string;
  requestId?: string;
  accountId?: string;
  [field: string]: unknown;
}

describe('request ids', () => {
  let app: NestFastifyApplication;
  let api: Api;

  beforeAll(async () => {
    app = await startHardenedApp({});
    api = new Api(app);
  });

  afterAll(() => app.close());

  it('echo a sane incoming X-Request-Id', async () => {
    const id = 'editor-7f3a.91_b';
    const response = await api.get('/health/live', { headers: { 'x-request-id': id } });
    expect(response.headers['x-request-id']).toBe(id);
  });

  it.each([
    ['none', undefined],
    ['one too long', 'x'.repeat(129)],
    ['one with other characters', 'abc def/<script>'],
  ])('generate a UUID when the request carries %s', async (_what, id) => {
    const response = await api.get(
      '/health/live',
      id === undefined ? {} : { headers: { 'x-request-id': id } },
    );
    expect(response.headers['x-request-id']).toMatch(UUID);
  });

  it('are on errors, unknown routes and CORS preflights too, one per request', async () => {
    const answers = [
      await api.get('/projects'),
      await api.get('/no/such/route'),
      await api.request('POST', '/accounts', {
        raw: '{"username":',
        headers: { 'content-type': 'application/json' },
      }),
      await api.request('OPTIONS', '/projects', {
        headers: { origin: 'https://editor.example.com', 'access-control-request-method': 'POST' },
      }),
    ];
    // Paths Fastify's router refuses (bad percent-encoding, over-long ids) are unknown too.
    answers.push(await api.get('/projects/%zz'), await api.get(`/projects/${'a'.repeat(300)}`));
    expect(answers.map((answer) => answer.status)).toEqual([401, 404, 400, 204, 404, 404]);
    for (const answer of answers.slice(-2)) {
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(answer.body).toMatchObject({ type: '/problems/not-found', status: 404 });
    }
    const ids = answers.map((answer) => answer.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('logs', () => {
  const lines: string[] = [];
  let app: NestFastifyApplication;
  let api: Api;

  const parsed = (): LogLine[] => lines.map((line) => JSON.parse(line) as LogLine);

  beforeAll(async () => {
    // The most verbose level, and Redis unreachable, so that lines are written during requests.
    app = await startHardenedApp(
      { LOG_LEVEL: 'trace', REDIS_URL: `redis://127.0.0.1:${await closedPort()}` },
      { logLines: lines },
    );
    api = new Api(app);
  });

  afterAll(() => app.close());

  it('are JSON lines, Nest’s own included', () => {
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
    expect(parsed()).toContainEqual(
      expect.objectContaining({
        level: 'info',
        context: 'NestApplication',
        msg: 'Nest application successfully started',
      }),
    );
  });

  it('never contain a password, a token, an Authorization header or an accounts body', async () => {
    const username = `kate-${Date.now().toString(36)}`;
    const signUp = await api.post('/accounts', { username, password: PASSWORD });
    expect(signUp.status).toBe(201);
    const wrong = await api.post('/accounts/auth/token', {
      username,
      password: 'a wrong password!',
    });
    expect(wrong.status).toBe(401);
    const issued = await api.post('/accounts/auth/token', { username, password: PASSWORD });
    expect(issued.status).toBe(200);
    const token: string = issued.body.token;
    const me = await api.get('/accounts/auth/me', { token });
    expect(me.status).toBe(200);
    const refused = await api.get('/projects', { token: `${token}x` });
    expect(refused.status).toBe(401);

    const output = lines.join('');
    for (const secret of [PASSWORD, 'a wrong password!', token, `Bearer ${token}`, 'Bearer ']) {
      expect(output).not.toContain(secret);
    }
    expect(output.toLowerCase()).not.toContain('authorization');
    // The accounts bodies (requests and responses) carry the username: none is logged.
    expect(output).not.toContain(username);
  });

  it('have one access line per request, with its id, route, status, duration and account', async () => {
    const { token, id: accountId } = await api.newAccount('leo');
    const me = await api.get('/accounts/auth/me', {
      token,
      headers: { 'x-request-id': 'me-call-1' },
    });
    const missing = await api.get('/no/such/route', { headers: { 'x-request-id': 'lost-call-1' } });
    expect([me.status, missing.status]).toEqual([200, 404]);

    const access = (requestId: string) =>
      parsed().filter((line) => line.msg === 'request completed' && line.requestId === requestId);
    expect(access('me-call-1')).toEqual([
      expect.objectContaining({
        level: 'info',
        context: 'HTTP',
        method: 'GET',
        route: '/accounts/auth/me',
        path: '/accounts/auth/me',
        status: 200,
        durationMs: expect.any(Number),
        accountId,
      }),
    ]);
    expect(access('lost-call-1')).toEqual([
      expect.objectContaining({ method: 'GET', path: '/no/such/route', status: 404 }),
    ]);
    expect(access('lost-call-1')[0].accountId).toBeUndefined();
  });

  it('name the request on every line written while serving it', async () => {
    const own: string[] = [];
    const fresh = await startHardenedApp(
      { LOG_LEVEL: 'info', REDIS_URL: `redis://127.0.0.1:${await closedPort()}` },
      { logLines: own },
    );
    try {
      const before = own.length;
      // The first count on a Redis that is down: the fallback warns while serving the request.
      const response = await new Api(fresh).post(
        '/accounts',
        { username: `nina-${Date.now().toString(36)}`, password: PASSWORD },
        { headers: { 'x-request-id': 'inside-1' } },
      );
      expect(response.status).toBe(201);
      const during = own.slice(before).map((line) => JSON.parse(line) as LogLine);
      expect(during).toContainEqual(
        expect.objectContaining({ level: 'warn', context: 'RateLimit', requestId: 'inside-1' }),
      );
      // (The harness may fetch the OpenAPI document meanwhile: its access line has its own id.)
      for (const line of during.filter((entry) => entry.msg !== 'request completed')) {
        expect(line.requestId).toBe('inside-1');
      }
    } finally {
      await fresh.close();
    }
  });

  it('do not name a request on the warning of a pooled connection that failed while idle', async () => {
    const own: string[] = [];
    // One connection: it is opened while serving the first request, and the event of its
    // failure later fires in that request's asynchronous context.
    const fresh = await startHardenedApp(
      { LOG_LEVEL: 'info', DATABASE_POOL_SIZE: '1' },
      { logLines: own },
    );
    try {
      const response = await new Api(fresh).post(
        '/accounts',
        { username: `ida-${Date.now().toString(36)}`, password: PASSWORD },
        { headers: { 'x-request-id': 'opened-the-connection' } },
      );
      expect(response.status).toBe(201);
      const pool = fresh.get<Pool>(DATABASE_POOL);
      const {
        rows: [{ pid }],
      } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const killer = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
      await killer.connect();
      try {
        await killer.query('SELECT pg_terminate_backend($1)', [pid]);
      } finally {
        await killer.end();
      }
      const warning = async () => {
        for (let waited = 0; waited < 5000; waited += 50) {
          const line = own
            .map((entry) => JSON.parse(entry) as LogLine)
            .find((entry) => entry.msg?.startsWith('An idle database connection failed'));
          if (line) return line;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        throw new Error(`No warning of the failed connection in:\n${own.join('')}`);
      };
      const line = await warning();
      expect(line).toMatchObject({ level: 'warn', context: 'Database' });
      expect(line.requestId).toBeUndefined();
      expect(line.accountId).toBeUndefined();
    } finally {
      await fresh.close();
    }
  });

  it('follow LOG_LEVEL', async () => {
    const quiet: string[] = [];
    const warnOnly = await startHardenedApp({ LOG_LEVEL: 'warn' }, { logLines: quiet });
    try {
      expect((await new Api(warnOnly).get('/health/live')).status).toBe(200);
    } finally {
      await warnOnly.close();
    }
    const levels = new Set(quiet.map((line) => (JSON.parse(line) as LogLine).level));
    for (const level of levels) expect(['warn', 'error', 'fatal']).toContain(level);
  });
});

describe('log levels of the access lines', () => {
  const started: NestFastifyApplication[] = [];
  afterAll(() => Promise.all(started.map((app) => app.close())));

  /** An app whose log lines are collected, and the access line of a request id. */
  async function logged(env: Record<string, string>) {
    const lines: string[] = [];
    const app = await startHardenedApp({ LOG_LEVEL: 'info', ...env }, { logLines: lines });
    started.push(app);
    const entries = () => lines.map((line) => JSON.parse(line) as LogLine);
    const accessLine = async (requestId: string) => {
      // Written once the answer has gone out: the client may see the answer first.
      for (let waited = 0; waited < 10_000; waited += 20) {
        const found = entries().filter(
          (line) => line.context === 'HTTP' && line.requestId === requestId,
        );
        if (found.length > 0) return found;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`no access line for ${requestId} in:\n${lines.join('')}`);
    };
    return { app, api: new Api(app), entries, accessLine };
  }

  it('writes a 503 too-many-concurrent-requests as a warning with its problem type, no error', async () => {
    // Two connections, one per account; a request waits half the deadline for one.
    const { api, entries, accessLine } = await logged({
      DATABASE_POOL_SIZE: '2',
      DATABASE_TIMEOUT_MS: '10000',
    });
    const { token } = await api.newAccount('crowded');
    const created = await api.post('/projects', { title: 'Locked' }, { token });
    expect(created.status).toBe(201);
    // The account's one connection is held by a write waiting for the project's row lock, taken
    // here by another client until the refusal below has been seen.
    const locker = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM projects WHERE id = $1 FOR UPDATE', [created.body._id]);
      const blocked = api.put(
        `/projects/${created.body._id}`,
        { title: 'Renamed' },
        { token, headers: { 'x-request-id': 'holds-the-connection' } },
      );
      for (;;) {
        const { rows } = await locker.query<{ waiting: number }>(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        if (rows[0].waiting > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const refused = await api.get('/projects', {
        token,
        headers: { 'x-request-id': 'waits-for-a-connection' },
      });
      expect(refused.status).toBe(503);
      expect(refused.body.type).toBe('/problems/too-many-concurrent-requests');
      await locker.query('ROLLBACK');
      expect((await blocked).status).toBe(200);
    } finally {
      await locker.end();
    }

    expect(await accessLine('waits-for-a-connection')).toEqual([
      expect.objectContaining({
        level: 'warn',
        msg: 'request refused',
        status: 503,
        problemType: '/problems/too-many-concurrent-requests',
      }),
    ]);
    expect(await accessLine('holds-the-connection')).toEqual([
      expect.objectContaining({ level: 'info', msg: 'request completed', status: 200 }),
    ]);
    expect(entries().filter((line) => ['error', 'fatal'].includes(line.level))).toEqual([]);
  });

  it('writes 429 rate-limited and 503 database-unavailable as warnings, a 404 as information', async () => {
    const limited = await logged({ RATE_LIMIT_ANONYMOUS_MAX: '1' });
    const signUp = (id: string) =>
      limited.api.post(
        '/accounts',
        { username: `lou-${id}-${Date.now().toString(36)}`, password: PASSWORD },
        { headers: { 'x-request-id': id } },
      );
    expect((await signUp('first-sign-up')).status).toBe(201);
    expect((await signUp('second-sign-up')).status).toBe(429);
    expect(await limited.accessLine('second-sign-up')).toEqual([
      expect.objectContaining({
        level: 'warn',
        status: 429,
        problemType: '/problems/rate-limited',
      }),
    ]);
    const missing = await limited.api.get('/no/such/route', {
      headers: { 'x-request-id': 'lost-again' },
    });
    expect(missing.status).toBe(404);
    expect(await limited.accessLine('lost-again')).toEqual([
      expect.objectContaining({ level: 'info', status: 404, problemType: '/problems/not-found' }),
    ]);

    // Nothing listens where the database should be.
    const unreachable = await logged({
      DATABASE_URL: `postgresql://postgres@127.0.0.1:${await closedPort()}/none`,
      MIGRATE_ON_START: 'false',
    });
    const ready = await unreachable.api.get('/health/ready', {
      headers: { 'x-request-id': 'no-database' },
    });
    expect(ready.status).toBe(503);
    expect(await unreachable.accessLine('no-database')).toEqual([
      expect.objectContaining({
        level: 'warn',
        status: 503,
        problemType: '/problems/database-unavailable',
      }),
    ]);
    for (const { entries } of [limited, unreachable]) {
      expect(entries().filter((line) => line.context === 'HTTP' && line.level === 'error')).toEqual(
        [],
      );
    }
  });

  it('gives an answer written before routing a request id of its own, and its access line', async () => {
    const { app, accessLine } = await logged({});
    const address = app.getHttpServer().address();
    if (!address || typeof address === 'string') throw new Error('the app is not listening');
    /** The head of the answer to `raw`, sent on a connection of its own. */
    const headOf = (raw: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(address.port, '127.0.0.1');
        let received = '';
        socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
        socket.on('error', reject);
        socket.on('close', () => resolve(received.split('\r\n\r\n')[0]));
        socket.end(raw);
      });
    const idOf = (head: string) => /^x-request-id: (.*)$/im.exec(head)?.[1];

    const garbled = await headOf('NOT HTTP AT ALL\r\n\r\n');
    expect(garbled).toMatch(/^HTTP\/1\.1 400 /);
    const connectHead = await headOf(
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n',
    );
    expect(connectHead).toMatch(/^HTTP\/1\.1 501 /);
    const ids = [idOf(garbled), idOf(connectHead)];
    for (const id of ids) expect(id).toMatch(UUID);
    expect(ids[0]).not.toBe(ids[1]);

    expect(await accessLine(ids[0] as string)).toEqual([
      expect.objectContaining({
        level: 'info',
        msg: 'request refused before routing',
        status: 400,
        problemType: '/problems/malformed-request',
      }),
    ]);
    expect(await accessLine(ids[1] as string)).toEqual([
      expect.objectContaining({
        status: 501,
        problemType: '/problems/method-not-implemented',
      }),
    ]);
  });
});
