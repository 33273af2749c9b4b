import { jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { postFrom } from '../support/from-address';
import { Api, createLayout, type Response, startTestApp } from '../support/test-app';

// Sign-ups and sign-ins hash passwords (scrypt): slow on a busy machine.
jest.setTimeout(60_000);

const password = 'a long enough password';
const NO_STORE = 'no-store';
const PRIVATE = 'private, no-cache';

const cacheControl = (response: Response) => response.headers['cache-control'];

describe('Cache-Control', () => {
  let app: NestFastifyApplication;
  let api: Api;

  beforeAll(async () => {
    // A small budget per address, so that the token's 429 can be met too.
    app = await startTestApp({ RATE_LIMIT_ANONYMOUS_MAX: '40' });
    api = new Api(app);
  });
  afterAll(() => app.close());

  it('is no-store on every answer that carries a token or a password outcome, errors included', async () => {
    const username = `cached-${randomBytes(5).toString('hex')}`;
    const answers: Array<[string, Response]> = [];
    answers.push(['sign-up 201', await api.post('/accounts', { username, password })]);
    answers.push(['sign-up 409', await api.post('/accounts', { username, password })]);
    answers.push(['sign-up 400', await api.post('/accounts', { username: 'x', password })]);
    const token = await api.post('/accounts/auth/token', { username, password });
    answers.push(['token 200', token]);
    answers.push([
      'token 401',
      await api.post('/accounts/auth/token', { username, password: 'wrong password' }),
    ]);
    answers.push(['token 400', await api.post('/accounts/auth/token', { username })]);
    const change = (currentPassword: string) =>
      api.put(
        '/accounts/auth/me/password',
        { currentPassword, newPassword: 'a new long password' },
        { token: token.body.token },
      );
    answers.push(['password 403', await change('not the password')]);
    answers.push(['password 204', await change(password)]);
    answers.push([
      'password 401',
      await api.put('/accounts/auth/me/password', { currentPassword: password }),
    ]);
    expect(
      answers.map(([what, response]) => [what, response.status, cacheControl(response)]),
    ).toEqual(answers.map(([what]) => [what, Number(what.split(' ')[1]), NO_STORE]));
  });

  it('is no-store on the 429 of the token, too', async () => {
    // From an address of its own, whose budget the other tests do not need.
    let refused: Response | undefined;
    for (let i = 0; i < 50 && refused === undefined; i += 1) {
      const answer = await postFrom(app, '127.0.3.1', '/accounts/auth/token', {
        username: '',
        password: '',
      });
      if (answer.status === 429) refused = answer;
    }
    expect(refused?.status).toBe(429);
    expect(refused && cacheControl(refused)).toBe(NO_STORE);
  });

  it('is private, no-cache on every authenticated read: 200, 304 and HEAD, documents and lists', async () => {
    const { token } = await api.newAccount('reader');
    const layout = await createLayout(api, token);
    for (const path of [
      '/projects',
      layout.project,
      layout.columns,
      layout.column,
      '/accounts/auth/me',
    ]) {
      const read = await api.get(path, { token });
      expect([path, read.status, cacheControl(read)]).toEqual([path, 200, PRIVATE]);
      const head = await api.request('HEAD', path, { token });
      expect([path, head.status, cacheControl(head)]).toEqual([path, 200, PRIVATE]);
      if (read.headers.etag === undefined) continue;
      const unchanged = await api.get(path, {
        token,
        headers: { 'if-none-match': read.headers.etag },
      });
      expect([path, unchanged.status, cacheControl(unchanged)]).toEqual([path, 304, PRIVATE]);
    }
    // Another account's project does not exist for this one: that answer is its own too.
    const stranger = await api.newAccount('stranger');
    const hidden = await api.get(layout.project, { token: stranger.token });
    expect([hidden.status, cacheControl(hidden)]).toEqual([404, PRIVATE]);
  });

  it('is left out of writes and of reads without a valid token', async () => {
    const { token } = await api.newAccount('writer');
    const created = await api.post('/projects', { title: 'Written' }, { token });
    expect(created.status).toBe(201);
    expect(cacheControl(created)).toBeUndefined();
    const unauthenticated = await api.get('/projects');
    expect(unauthenticated.status).toBe(401);
    expect(cacheControl(unauthenticated)).toBeUndefined();
  });

  it('leaves the problem pages, the health checks and the explorer their own', async () => {
    const base = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}`;
    // Not operations of the API: fetched as they are, without the document's check.
    const page = await fetch(`${base}/problems/wrong-password`);
    expect([page.status, page.headers.get('cache-control')]).toEqual([200, 'public, max-age=3600']);
    const explorer = await fetch(`${base}/docs/swagger-ui-bundle.js`);
    expect([explorer.status, explorer.headers.get('cache-control')]).toEqual([
      200,
      'public, max-age=0',
    ]);
    await Promise.all([page.arrayBuffer(), explorer.arrayBuffer()]);
    const live = await api.get('/health/live');
    expect(live.status).toBe(200);
    expect(cacheControl(live)).toBeUndefined();
  });
});
