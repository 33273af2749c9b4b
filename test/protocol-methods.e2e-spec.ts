import { jest } from '@jest/globals';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { PROBLEM_STATUSES, PROBLEM_TITLES, PROBLEM_TYPES } from '@layout/contracts';
import { Api, createLayout, type LayoutPaths, readBody, startTestApp } from './support/test-app';

// Sign-ups and sign-ins hash passwords (scrypt): slow on a busy machine.
jest.setTimeout(60_000);

const ORIGIN = 'https://editor.example.com';
const API_POLICY = "default-src 'none';frame-ancestors 'none'";

interface Raw {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** HTTP and HTML methods, routes and types, without the tests' client: the 405s and the problem
 *  pages are outside the OpenAPI document on purpose (its info text describes them). */
describe('methods, OPTIONS and the problem pages', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let base: string;
  let token: string;
  let layout: LayoutPaths;

  const raw = async (method: string, path: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, { method, headers });
    const answer: Raw = {
      status: response.status,
      headers: response.headers,
      ...(await readBody(response)),
    };
    return answer;
  };

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    const address = app.getHttpServer().address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    base = `http://127.0.0.1:${address.port}`;
    ({ token } = await api.newAccount('methods'));
    layout = await createLayout(api, token);
  });
  afterAll(() => app.close());

  /** A path, or `layout.<name>` for one of the test's layout. */
  const at = (path: string) =>
    path.startsWith('layout.') ? layout[path.slice('layout.'.length) as keyof LayoutPaths] : path;

  const expectMethodNotAllowed = (response: Raw, method: string, allow: string) => {
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({
      type: '/problems/method-not-allowed',
      title: 'Method not allowed',
      status: 405,
    });
    expect(response.body.detail).toContain(method);
    expect(response.headers.get('x-request-id')).toEqual(expect.any(String));
    expect(response.headers.get('content-security-policy')).toBe(API_POLICY);
  };

  describe('a method the path does not have', () => {
    it.each([
      ['PATCH', '/projects', 'GET, HEAD, POST, OPTIONS'],
      ['DELETE', '/projects', 'GET, HEAD, POST, OPTIONS'],
      ['POST', 'layout.project', 'GET, HEAD, PUT, DELETE, OPTIONS'],
      ['PATCH', 'layout.column', 'GET, HEAD, PUT, DELETE, OPTIONS'],
      ['PUT', 'layout.contents', 'GET, HEAD, POST, OPTIONS'],
      ['GET', '/accounts/auth/token', 'POST, DELETE, OPTIONS'],
      ['POST', '/accounts/auth/me', 'GET, HEAD, DELETE, OPTIONS'],
      ['GET', '/accounts/auth/me/password', 'PUT, OPTIONS'],
      ['DELETE', '/accounts', 'POST, OPTIONS'],
      ['POST', '/health/live', 'GET, HEAD, OPTIONS'],
      ['DELETE', '/docs/openapi.json', 'GET, HEAD, OPTIONS'],
      ['POST', '/problems/validation', 'GET, HEAD, OPTIONS'],
    ])('%s %s answers 405 with Allow, token or not', async (method, path, allow) => {
      expectMethodNotAllowed(await raw(method, at(path)), method, allow);
      expectMethodNotAllowed(
        await raw(method, at(path), { authorization: `Bearer ${token}` }),
        method,
        allow,
      );
    });

    it('is a 405 whether or not the ids name anything, with a trailing slash too', async () => {
      const allow = 'GET, HEAD, PUT, DELETE, OPTIONS';
      expectMethodNotAllowed(await raw('PATCH', '/projects/no-such-project'), 'PATCH', allow);
      expectMethodNotAllowed(await raw('PATCH', `${layout.project}/`), 'PATCH', allow);
    });

    it('lets a browser app on another origin read it', async () => {
      const response = await raw('PATCH', '/projects', { origin: ORIGIN });
      expect(response.status).toBe(405);
      expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(response.headers.get('access-control-expose-headers')).toMatch(/\bAllow\b/);
    });

    it('is a 404 on a path that does not exist, whatever the method', async () => {
      for (const [method, path] of [
        ['PATCH', '/nowhere'],
        ['POST', `${layout.project}/nothing`],
        ['GET', '/docs/package.json'],
        ['POST', '/docs/swagger-ui.css'],
        ['PATCH', '/projects/%zz'],
      ]) {
        const response = await raw(method, path);
        expect(response.status).toBe(404);
        expect(response.headers.get('allow')).toBeNull();
        expect(response.body).toMatchObject({ type: '/problems/not-found', status: 404 });
      }
    });
  });

  describe('HEAD', () => {
    it('answers wherever GET does, without a body', async () => {
      const get = await api.get(layout.project, { token });
      const head = await api.request('HEAD', layout.project, { token });
      expect(head.status).toBe(200);
      expect(head.text).toBe('');
      expect(head.headers.etag).toBe(get.headers.etag);
      expect((await api.request('HEAD', '/health/live')).status).toBe(200);
    });

    it('answers 405 where GET does not exist', async () => {
      const response = await raw('HEAD', '/accounts/auth/token');
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST, DELETE, OPTIONS');
      expect(response.text).toBe('');
    });
  });

  describe('OPTIONS', () => {
    it.each([
      ['/projects', 'GET, HEAD, POST, OPTIONS'],
      ['layout.column', 'GET, HEAD, PUT, DELETE, OPTIONS'],
      ['/accounts/auth/token', 'POST, DELETE, OPTIONS'],
      ['/problems', 'GET, HEAD, OPTIONS'],
    ])('on %s, not a CORS preflight, answers 204 with Allow', async (path, allow) => {
      for (const headers of [{}, { origin: ORIGIN }] as Array<Record<string, string>>) {
        const response = await raw('OPTIONS', at(path), headers);
        expect(response.status).toBe(204);
        expect(response.headers.get('allow')).toBe(allow);
        expect(response.text).toBe('');
        expect(response.headers.get('x-request-id')).toEqual(expect.any(String));
        expect(response.headers.get('access-control-allow-methods')).toBeNull();
      }
    });

    it('on a path that does not exist answers 404 problem+json', async () => {
      const response = await raw('OPTIONS', '/nowhere');
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(response.body).toMatchObject({ type: '/problems/not-found', status: 404 });
    });

    it('leaves CORS preflights as they were', async () => {
      const response = await raw('OPTIONS', layout.columns, {
        origin: ORIGIN,
        'access-control-request-method': 'PUT',
        'access-control-request-headers': 'authorization, content-type, if-match',
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(response.headers.get('access-control-allow-methods')).toBe(
        'GET, POST, PUT, DELETE, OPTIONS',
      );
      expect(response.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
      expect(response.headers.get('access-control-max-age')).toBe('600');
      expect(response.headers.get('allow')).toBeNull();
      expect(response.text).toBe('');
      // A preflight without an Origin is still refused by @fastify/cors, as before.
      const noOrigin = await raw('OPTIONS', '/projects', {
        'access-control-request-method': 'GET',
      });
      expect(noOrigin.status).toBe(400);
    });
  });

  describe('the problem type pages', () => {
    it.each(Object.entries(PROBLEM_TYPES))('%s: GET %s answers its page', async (_kind, type) => {
      const response = await raw('GET', type);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('content-security-policy')).toBe(API_POLICY);
      expect(response.headers.get('ratelimit')).toBeNull();
      const title = PROBLEM_TITLES[type].replace(/'/g, '&#39;');
      expect(response.text).toContain(`<h1>${title}</h1>`);
      expect(response.text).toContain(`<dd>${PROBLEM_STATUSES[type]}</dd>`);
      expect(response.text).toContain('href="/docs"');
      expect(response.text).not.toMatch(/<script|style=/i);
    });

    it('lists every type at /problems, and answers HEAD', async () => {
      const list = await raw('GET', '/problems');
      expect(list.status).toBe(200);
      expect(list.headers.get('content-type')).toBe('text/html; charset=utf-8');
      for (const type of Object.values(PROBLEM_TYPES)) expect(list.text).toContain(`"${type}"`);
      const head = await raw('HEAD', '/problems/not-found');
      expect(head.status).toBe(200);
      expect(head.text).toBe('');
    });

    it('answers a name that is no problem type with 404 problem+json', async () => {
      for (const path of ['/problems/no-such-problem', '/problems/validation/more']) {
        const response = await raw('GET', path);
        expect(response.status).toBe(404);
        expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(response.body).toMatchObject({ type: '/problems/not-found', status: 404 });
      }
    });

    it('is where a problem body points', async () => {
      const problem = await api.get('/projects');
      expect(problem.status).toBe(401);
      const page = await raw('GET', problem.body.type);
      expect(page.status).toBe(200);
      expect(page.text).toContain('<h1>Authentication required</h1>');
    });
  });

  describe('the OpenAPI document', () => {
    it('documents X-Request-Id on every response, the RateLimit fields on every counted one', async () => {
      const document = (await api.get('/docs/openapi.json')).body;
      let responses = 0;
      // Never counted: the probes, and an asset's bytes, which a page loads many at a time.
      const unlimited = (path: string, method: string) =>
        path.startsWith('/health') || (path === '/assets/{assetId}' && method === 'get');
      for (const [path, item] of Object.entries<any>(document.paths)) {
        for (const [method, operation] of Object.entries<any>(item)) {
          for (const [status, response] of Object.entries<any>(operation.responses)) {
            responses += 1;
            const where = `${path} ${status}`;
            expect([where, response.headers?.['X-Request-Id']?.required]).toEqual([where, true]);
            const counted = !unlimited(path, method);
            expect([where, response.headers?.RateLimit !== undefined]).toEqual([where, counted]);
            expect([where, response.headers?.['RateLimit-Policy'] !== undefined]).toEqual([
              where,
              counted,
            ]);
          }
        }
      }
      expect(responses).toBeGreaterThan(50);
      expect(document.info.description).toContain('/problems/method-not-allowed');
      expect(Object.keys(document.paths).some((path) => path.startsWith('/problems'))).toBe(false);
    });
  });

  it('sends the documented RateLimit fields on counted answers', async () => {
    const response = await api.get('/projects', { token });
    expect(response.headers['ratelimit-policy']).toBe('"account";q=1000000;w=60');
    expect(response.headers.ratelimit).toMatch(/^"account";r=\d+;t=\d+$/);
  });
});
