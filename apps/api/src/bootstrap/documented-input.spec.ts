import { type OpenAPIObject } from '@nestjs/swagger';
import { documentedInputs } from './documented-input';

describe('documentedInputs', () => {
  it('lists, per method and Fastify route, the query parameters and whether a body goes', () => {
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
          post: { responses: {}, requestBody: { content: {} } },
        },
        '/projects/{projectId}': {
          get: { responses: {}, parameters: [{ name: 'projectId', in: 'path' }] },
        },
      },
    } as unknown as OpenAPIObject;
    const inputs = documentedInputs(document);
    expect(inputs.get('GET /projects')).toEqual({
      query: new Set(['limit', 'cursor']),
      takesBody: false,
    });
    expect(inputs.get('POST /projects')).toEqual({ query: new Set(), takesBody: true });
    expect(inputs.get('GET /projects/:projectId')).toEqual({ query: new Set(), takesBody: false });
    expect(inputs.has('DELETE /projects/:projectId')).toBe(false);
  });
});
