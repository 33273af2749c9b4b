import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

/** The explorer at /docs and the document at /docs/openapi.json, both without a token. */
export function setUpOpenApi(app: NestFastifyApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Proposal page layout service')
    .setDescription(
      'Stores the layout of proposal pages: project > block > row > column > content. ' +
        'Get a token from POST /accounts/auth/token, then send it as `Authorization: Bearer <token>`. ' +
        'Errors are RFC 9457 application/problem+json.',
    )
    .setVersion('1')
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      description: 'A token from POST /accounts/auth/token',
    })
    .build();
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
    swaggerOptions: { persistAuthorization: true },
  });
}
