import { Logger, type LoggerService, type LogLevel as NestLogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from '../app.module';
import { ContractValidationPipe } from '../common/pipes/contract-validation.pipe';
import { ProblemDetailsFilter } from '../common/filters/problem-details.filter';
import { type AppConfig, type LogLevel } from '../config/app-config';
import { configureJsonBodies, BODY_LIMIT_BYTES } from './json-bodies';
import { setUpOpenApi } from './openapi';

/**
 * Builds the application exactly as it serves traffic; main.ts and the e2e tests both use it,
 * so the tests exercise the real HTTP stack.
 */
export async function createApp(
  config: AppConfig,
  logger: LoggerService | false = nestLogger(config.logLevel),
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    // Ids in the path are matched case-sensitively; a trailing slash is tolerated.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, {
    logger,
    abortOnError: false,
    // Body parsing is ours (json-bodies.ts): JSON only, so other types answer 415.
    bodyParser: false,
  });

  const fastify = app.getHttpAdapter().getInstance();
  configureJsonBodies(fastify);

  app.useGlobalPipes(new ContractValidationPipe());
  app.useGlobalFilters(new ProblemDetailsFilter());
  app.enableCors({
    origin: config.corsOrigins === true ? true : [...config.corsOrigins],
    methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
    allowedHeaders: ['Authorization', 'Content-Type'],
    exposedHeaders: ['Location', 'Retry-After', 'WWW-Authenticate'],
    maxAge: 600,
  });
  setUpOpenApi(app);
  await app.init();
  return app;
}

function nestLogger(level: LogLevel): LoggerService | false {
  const order: NestLogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];
  const nestLevel: Record<LogLevel, number> = {
    silent: -1,
    fatal: 0,
    error: 1,
    warn: 2,
    info: 3,
    debug: 4,
    trace: 5,
  };
  if (level === 'silent') return false;
  const logger = new Logger();
  Logger.overrideLogger(order.slice(0, nestLevel[level] + 1));
  return logger;
}
