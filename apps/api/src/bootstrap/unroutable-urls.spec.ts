import Fastify, { type FastifyInstance } from 'fastify';
import { allowedMethods } from './unroutable-urls';

describe('allowedMethods', () => {
  let fastify: FastifyInstance;

  beforeAll(async () => {
    fastify = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
    const ok = () => ({});
    fastify.get('/projects', ok);
    fastify.post('/projects', ok);
    fastify.get('/projects/:projectId', ok);
    fastify.put('/projects/:projectId', ok);
    fastify.delete('/projects/:projectId', ok);
    fastify.post('/accounts/auth/token', ok);
    fastify.get('/docs/*', ok);
    fastify.options('*', ok);
    await fastify.ready();
  });
  afterAll(() => fastify.close());

  it('lists the methods of the routes the path matches, HEAD with GET, OPTIONS last', () => {
    expect(allowedMethods(fastify, '/projects')).toEqual(['GET', 'HEAD', 'POST', 'OPTIONS']);
    expect(allowedMethods(fastify, '/projects/p1')).toEqual([
      'GET',
      'HEAD',
      'PUT',
      'DELETE',
      'OPTIONS',
    ]);
    expect(allowedMethods(fastify, '/accounts/auth/token')).toEqual(['POST', 'OPTIONS']);
  });

  it('matches as the router does: a trailing slash, percent-encoded ids', () => {
    expect(allowedMethods(fastify, '/projects/')).toEqual(['GET', 'HEAD', 'POST', 'OPTIONS']);
    expect(allowedMethods(fastify, '/projects/a%20b')).toContain('PUT');
  });

  it('knows no path that only a wildcard or the catch-all OPTIONS route matches', () => {
    expect(allowedMethods(fastify, '/nowhere')).toEqual([]);
    expect(allowedMethods(fastify, '/projects/p1/nothing')).toEqual([]);
    expect(allowedMethods(fastify, '/docs/anything.js')).toEqual([]);
  });
});
