import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { buildOpenApiDocument, DOCS_PATH, DOCUMENT_PATH } from './openapi/document';

export { buildOpenApiDocument } from './openapi/document';

/**
 * The explorer at /docs and the document at /docs/openapi.json, both without a token. The
 * document is built once the application is complete, before it accepts connections (Fastify's
 * onReady, awaited by listen): a failure stops the start instead of surfacing on the first visit.
 */
export function setUpOpenApi(app: NestFastifyApplication): void {
  let document: OpenAPIObject | undefined;
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onReady', async () => {
      document ??= await buildOpenApiDocument(app);
    });
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
