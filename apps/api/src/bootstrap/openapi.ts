import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { type FastifyInstance } from 'fastify';
import { buildOpenApiDocument, DOCS_PATH, DOCUMENT_PATH } from '../openapi/document';
import {
  type DocumentedInputs,
  documentedInputs,
  UndocumentedInputGuard,
} from './documented-input';

export { buildOpenApiDocument } from '../openapi/document';

/**
 * The route under which SwaggerModule serves the files of swagger-ui-dist (@fastify/static), and
 * the ones the explorer's page loads (with their source maps, for the browser's tools).
 */
const EXPLORER_FILES_ROUTE = `/${DOCS_PATH}/*`;
export const EXPLORER_FILES: ReadonlySet<string> = new Set([
  'swagger-ui.css',
  'swagger-ui.css.map',
  'swagger-ui-bundle.js',
  'swagger-ui-bundle.js.map',
  'swagger-ui-standalone-preset.js',
  'swagger-ui-standalone-preset.js.map',
  'favicon-16x16.png',
  'favicon-32x32.png',
]);

/**
 * Only the explorer's own files reach @fastify/static: any other path under /docs is an unknown
 * route (404 not-found), before the file system is looked at. Without this, the package's other
 * files (package.json, README.md, index.js, ...) were served, and a path that @fastify/static
 * refuses (`..`, `.`, an empty segment or a NUL, encoded or not) answered its 403 "Forbidden",
 * which the problem filter took for a 400 validation problem.
 */
function serveOnlyExplorerFiles(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    if (request.routeOptions.url !== EXPLORER_FILES_ROUTE) {
      done();
      return;
    }
    const file = (request.params as Record<string, string | undefined>)['*'];
    if (file !== undefined && EXPLORER_FILES.has(file)) {
      done();
      return;
    }
    reply.callNotFound();
  });
}

/**
 * The explorer at /docs (its page and the files it loads, nothing else) and the document at
 * /docs/openapi.json, both without a token. The
 * document is built once the application is complete, before it accepts connections (Fastify's
 * onReady, awaited by listen): a failure stops the start instead of surfacing on the first visit.
 */
export function setUpOpenApi(app: NestFastifyApplication): void {
  let document: OpenAPIObject | undefined;
  const fastify = app.getHttpAdapter().getInstance();
  let inputs: DocumentedInputs | undefined;
  fastify.addHook('onReady', async () => {
    document ??= await buildOpenApiDocument(app);
    inputs = documentedInputs(document);
  });
  serveOnlyExplorerFiles(fastify);
  app.useGlobalGuards(new UndocumentedInputGuard(() => inputs));
  SwaggerModule.setup(
    DOCS_PATH,
    app,
    () => {
      if (document === undefined) throw new Error('The OpenAPI document is not built yet');
      return document;
    },
    {
      jsonDocumentUrl: DOCUMENT_PATH,
      yamlDocumentUrl: 'docs/openapi.yaml',
      swaggerOptions: { persistAuthorization: true },
    },
  );
}
