import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Api, createLayout, type LayoutPaths, startTestApp } from './support/test-app';

/** HTTP-level behaviour shared by every operation: bodies, errors, CORS, health, docs. */
describe('protocol', () => {
  let app: NestFastifyApplication;
  let api: Api;
  let token: string;
  let layout: LayoutPaths;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
    ({ token } = await api.newAccount());
    layout = await createLayout(api, token);
  });
  afterAll(() => app.close());

  const expectProblem = (
    response: { status: number; headers: Record<string, unknown>; body: any },
    status: number,
    type: string,
  ) => {
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ type, status, title: expect.any(String) });
    expect(JSON.stringify(response.body)).not.toMatch(
      /at .*\.(ts|js):\d+|node_modules|SELECT|prisma/i,
    );
  };

  it('answers an unknown query parameter with 400 naming it, on every kind of operation', async () => {
    for (const [method, path] of [
      ['GET', `${layout.project}?colour=red`],
      ['GET', `${layout.contents}?constructor=1`],
      ['GET', `/projects?limit=2&__proto__=x`],
      ['DELETE', `${layout.column}?force=true`],
      ['GET', '/health/ready?verbose'],
    ] as const) {
      const response = await api.request(method, path, { token });
      expectProblem(response, 400, '/problems/validation');
      const name = /[?&]([^=&]+)(?:=[^&]*)?$/.exec(path)?.[1];
      expect(response.body.errors).toEqual([
        { pointer: `/${name}`, detail: 'is not a known member' },
      ]);
    }
    // The column is still there: the refused DELETE did nothing.
    expect((await api.get(layout.column, { token })).status).toBe(200);
    // Documented parameters pass, and routes outside the document are left alone.
    expect((await api.get('/projects?limit=2', { token })).status).toBe(200);
    // Without a valid token, the answer is 401 whatever the query says.
    for (const auth of [{}, { token: 'x'.repeat(43) }]) {
      const unauthenticated = await api.request('GET', `${layout.project}?colour=red`, auth);
      expectProblem(unauthenticated, 401, '/problems/unauthorized');
      expect(unauthenticated.headers['www-authenticate']).toMatch(/^Bearer /);
    }
    expect((await api.request('GET', '/docs/swagger-ui.css?v=1', {})).status).toBe(200);
  });

  it('refuses a body where the operation takes none, and changes nothing', async () => {
    const refused = await api.request('DELETE', layout.column, { token, body: { force: true } });
    expectProblem(refused, 400, '/problems/validation');
    expect(refused.body.detail).toBe('This operation takes no body');
    expect((await api.get(layout.column, { token })).status).toBe(200);
    const signedIn = await api.newAccount('no-body');
    const signOut = await api.request('DELETE', '/accounts/auth/token', {
      token: signedIn.token,
      body: { everywhere: true },
    });
    expectProblem(signOut, 400, '/problems/validation');
    expect((await api.get('/accounts/auth/me', { token: signedIn.token })).status).toBe(200);
    // An empty body is none: some clients send one with a JSON content type on DELETE.
    const emptied = await api.request('DELETE', '/accounts/auth/token', {
      token: signedIn.token,
      raw: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(emptied.status).toBe(204);
  });

  it('answers malformed JSON with 400', async () => {
    const response = await api.request('POST', layout.columns, {
      token,
      raw: '{"size": 6',
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(response, 400, '/problems/malformed-json');
  });

  it('accepts a charset on the JSON content type', async () => {
    const response = await api.request('POST', layout.contents, {
      token,
      raw: '{"type":"empty"}',
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(response.status).toBe(201);
  });

  it.each([
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
  ])('answers a %s body with 415', async (contentType) => {
    const response = await api.request('POST', layout.contents, {
      token,
      raw: 'type=empty',
      headers: { 'content-type': contentType },
    });
    expectProblem(response, 415, '/problems/unsupported-media-type');
  });

  it('answers a body above 1 MiB with 413 and stores nothing', async () => {
    const before = (await api.get(layout.contents, { token })).body.length;
    const response = await api.post(
      layout.contents,
      { type: 'text', data: { html: 'x'.repeat(1024 * 1024) } },
      { token },
    );
    expectProblem(response, 413, '/problems/payload-too-large');
    expect((await api.get(layout.contents, { token })).body).toHaveLength(before);
  });

  it.each([[[]], ['"text"'], ['null'], ['42']])(
    'answers a body that is not an object (%s) with 400',
    async (raw) => {
      const response = await api.request('POST', layout.contents, {
        token,
        raw: typeof raw === 'string' ? raw : JSON.stringify(raw),
        headers: { 'content-type': 'application/json' },
      });
      expectProblem(response, 400, '/problems/validation');
    },
  );

  it('answers a missing body with 400', async () => {
    expectProblem(
      await api.request('POST', layout.contents, { token }),
      400,
      '/problems/validation',
    );
  });

  it('refuses __proto__ keys as unknown members, without polluting anything', async () => {
    const response = await api.request('POST', layout.contents, {
      token,
      raw: '{"type":"empty","__proto__":{"polluted":true}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      type: '/problems/validation',
      errors: [{ pointer: '/__proto__', detail: 'is not a known member' }],
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('ignores an empty JSON body on DELETE', async () => {
    const content = (await api.post(layout.contents, { type: 'empty' }, { token })).body;
    const response = await api.request('DELETE', `${layout.contents}/${content._id}`, {
      token,
      raw: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(204);
  });

  it('answers an unknown route with a 404 problem', async () => {
    expectProblem(await api.get('/nowhere', { token }), 404, '/problems/not-found');
    expectProblem(await api.get('/projects/x/y/z/w', { token }), 404, '/problems/not-found');
  });

  it.each([
    [{ title: 7 }],
    [{ title: '' }],
    [{ title: 'x'.repeat(201) }],
    [{ title: ['a'] }],
    [{ title: { $gt: '' } }],
  ])('rejects a project body %j with 400', async (body) => {
    expectProblem(await api.post('/projects', body, { token }), 400, '/problems/validation');
  });

  describe('authentication', () => {
    it('answers a missing token with 401 and a Bearer challenge', async () => {
      const response = await api.get('/projects');
      expectProblem(response, 401, '/problems/unauthorized');
      expect(response.headers['www-authenticate']).toMatch(/^Bearer realm="layout"$/);
    });

    it.each(['Bearer', 'bearer', 'BEARER   '])(
      'takes the token after the scheme %j, in any case and after any number of spaces',
      async (scheme) => {
        const response = await api.get('/accounts/auth/me', {
          headers: { authorization: `${scheme} ${token}` },
        });
        expect(response.status).toBe(200);
      },
    );

    it.each([
      'Bearer nope',
      'Bearer ' + 'a'.repeat(43),
      'Basic dXNlcjpwYXNz',
      'Bearer',
      'token',
      'Bearer  a b',
    ])('answers Authorization %j with 401', async (authorization) => {
      const response = await api.get('/projects', { headers: { authorization } });
      expectProblem(response, 401, '/problems/unauthorized');
      expect(response.headers['www-authenticate']).toMatch(/^Bearer /);
    });
  });

  describe('CORS', () => {
    it('answers a preflight from another origin, allowing Authorization', async () => {
      const response = await api.request('OPTIONS', layout.columns, {
        headers: {
          origin: 'https://editor.example.com',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
      expect(response.status).toBeLessThan(300);
      expect(response.headers['access-control-allow-origin']).toBe('https://editor.example.com');
      expect(String(response.headers['access-control-allow-headers']).toLowerCase()).toContain(
        'authorization',
      );
    });

    it('allows Last-Event-ID, so that a script resumes a project’s event stream itself', async () => {
      const response = await api.request('OPTIONS', `${layout.project}/events`, {
        headers: {
          origin: 'https://editor.example.com',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization,last-event-id',
        },
      });
      expect(response.status).toBeLessThan(300);
      const allowed = String(response.headers['access-control-allow-headers']).toLowerCase();
      expect(allowed.split(/\s*,\s*/)).toEqual(
        expect.arrayContaining(['authorization', 'last-event-id']),
      );
    });

    it('exposes Location to scripts', async () => {
      const response = await api.post(
        layout.contents,
        { type: 'empty' },
        {
          token,
          headers: { origin: 'https://editor.example.com' },
        },
      );
      expect(response.status).toBe(201);
      expect(String(response.headers['access-control-expose-headers'])).toMatch(/Location/i);
    });
  });

  describe('operations', () => {
    it('reports liveness and readiness without a token', async () => {
      expect((await api.get('/health/live')).body).toEqual({ status: 'ok' });
      expect((await api.get('/health/ready')).body).toEqual({ status: 'ok' });
    });

    it('serves the explorer and the OpenAPI document without a token', async () => {
      const explorer = await api.get('/docs');
      expect(explorer.status).toBe(200);
      expect(explorer.text).toContain('swagger');
      const document = await api.get('/docs/openapi.json');
      expect(document.status).toBe(200);
      expect(document.body.openapi).toMatch(/^3\./);
      expect(Object.keys(document.body.paths)).toEqual(
        expect.arrayContaining([
          '/projects/{projectId}/blocks/{blockId}/rows/{rowId}/columns',
          '/projects/{projectId}/blocks/{blockId}/rows/{rowId}/columns/{columnId}/contents/{contentId}',
          '/accounts/auth/token',
        ]),
      );
    });
  });
});
