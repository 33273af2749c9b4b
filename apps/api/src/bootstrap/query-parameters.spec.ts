import { type OpenAPIObject } from '@nestjs/swagger';
import { knownQueryParameters } from './query-parameters';

describe('knownQueryParameters', () => {
  it('lists, per method and Fastify route, the query parameters the document gives', () => {
    const document = {
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      paths: {
        '/projects': {
          get: {
            responses: {},
            parameters: [
              { name: 'limit', in: 'query' },
              { name: 'cursor', in: 'query' },
              { name: 'If-None-Match', in: 'header' },
            ],
          },
          post: { responses: {} },
        },
        '/projects/{projectId}': {
          get: { responses: {}, parameters: [{ name: 'projectId', in: 'path' }] },
        },
      },
    } as unknown as OpenAPIObject;
    const known = knownQueryParameters(document);
    expect([...(known.get('GET /projects') ?? [])]).toEqual(['limit', 'cursor']);
    expect([...(known.get('POST /projects') ?? [])]).toEqual([]);
    expect([...(known.get('GET /projects/:projectId') ?? [])]).toEqual([]);
    expect(known.has('DELETE /projects/:projectId')).toBe(false);
  });
});
