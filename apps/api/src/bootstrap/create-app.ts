import { type IncomingMessage } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { type DestinationStream } from 'pino';
import { AppModule } from '../app.module';
import { ContractValidationPipe } from '../common/pipes/contract-validation.pipe';
import { ProblemDetailsFilter } from '../common/filters/problem-details.filter';
import { logEveryRequest } from '../common/logging/access-log';
import { PinoNestLogger } from '../common/logging/nest-logger';
import { trackRequests } from '../common/logging/request-context';
import { REQUEST_ID_HEADER, requestIdFrom } from '../common/logging/request-id';
import { createRootLogger } from '../common/logging/root-logger';
import { RATE_LIMIT_HEADER_NAMES } from '../common/throttling/rate-limit-headers';
import { type AppConfig } from '../config/app-config';
import { configureCacheControl } from './cache-control';
import { answerWhatNodeWould, clientErrorAnswerer } from './client-errors';
import { configureCompression } from './compression';
import { prepareShutdown } from './graceful-shutdown';
import { configureJsonBodies, BODY_LIMIT_BYTES } from './json-bodies';
import { configureJsonReplies } from './json-replies';
import { refuseMisframedRequests } from './request-framing';
import { setUpOpenApi } from './openapi';
import { configureSecurityHeaders } from './security-headers';
import { answerOtherMethods, answerUnroutableUrl, corsForPreflightsOnly } from './unroutable-urls';
import { serveProblemPages } from '../problem-pages/problem-pages';
import { serveLiveDemo } from '../demo/live-demo';
import { Metrics } from '../metrics/metrics';
import { recordRequestDurations } from '../metrics/request-durations';
import { type Tracing } from '../tracing/tracing';

export interface CreateAppOptions {
  /** Where the JSON log lines go: standard output when left out. */
  readonly logDestination?: DestinationStream;
  /** The process's tracing, when main.ts started it (OTEL_EXPORTER_OTLP_ENDPOINT). */
  readonly tracing?: Tracing;
}

/**
 * Builds the application exactly as it serves traffic; main.ts and the e2e tests both use it,
 * so the tests exercise the real HTTP stack. `false` for options writes no log line at all.
 */
export async function createApp(
  config: AppConfig,
  options: CreateAppOptions | false = {},
): Promise<NestFastifyApplication> {
  const logger = createRootLogger(
    options === false ? 'silent' : config.logLevel,
    options === false ? undefined : options.logDestination,
  );
  // The answers written before any route (client-errors.ts) log as the access log does.
  const edgeLog = logger.child({ context: 'HTTP' });
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    // Ids in the path are matched case-sensitively; a trailing slash is tolerated.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    genReqId: (request: IncomingMessage) => requestIdFrom(request.headers[REQUEST_ID_HEADER]),
    frameworkErrors: answerUnroutableUrl,
    clientErrorHandler: clientErrorAnswerer(edgeLog),
    // No client holds a connection forever: the headers and the whole body must arrive in
    // time (answered 408 by clientErrorAnswerer), idle connections are closed.
    http: {
      // Answered by request-framing.ts instead, as problem+json (Node's own 400 has no body).
      requireHostHeader: false,
      headersTimeout: config.http.headersTimeoutMs,
      requestTimeout: config.http.requestTimeoutMs,
      // Node checks those two deadlines on this interval, so it bounds how late they fire.
      connectionsCheckingInterval: Math.min(1000, config.http.headersTimeoutMs),
    },
    requestTimeout: config.http.requestTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    connectionTimeout: config.http.idleTimeoutMs,
    // Answered by graceful-shutdown.ts instead, as problem+json.
    return503OnClosing: false,
  });
  const tracing = options === false ? undefined : options.tracing;
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, tracing),
    adapter,
    {
      // Nest's own lines and every `new Logger(context)` go out as the same JSON lines.
      logger: new PinoNestLogger(logger),
      abortOnError: false,
      // Body parsing is ours (json-bodies.ts): JSON only, so other types answer 415.
      bodyParser: false,
    },
  );

  const fastify = app.getHttpAdapter().getInstance();
  // First: every hook and route after it runs inside the request's span.
  await tracing?.traceRequests(fastify);
  // Before any route is added: each route's durations are labelled with its template.
  if (config.metrics.port !== undefined) recordRequestDurations(fastify, app.get(Metrics));
  trackRequests(fastify);
  answerWhatNodeWould(fastify.server, edgeLog);
  refuseMisframedRequests(fastify);
  prepareShutdown(fastify);
  logEveryRequest(fastify, logger);
  configureJsonBodies(fastify);
  configureJsonReplies(fastify);
  configureSecurityHeaders(app);
  configureCacheControl(fastify);
  // After the request id, security and CORS headers: 405 with Allow, and OPTIONS without CORS.
  answerOtherMethods(fastify);
  serveProblemPages(fastify);
  serveLiveDemo(fastify);
  await configureCompression(app);

  app.useGlobalPipes(new ContractValidationPipe());
  app.useGlobalFilters(new ProblemDetailsFilter());
  // Preflights only: any other OPTIONS request is answered by answerOtherMethods.
  app.enableCors(
    corsForPreflightsOnly({
      origin: config.corsOrigins === true ? true : [...config.corsOrigins],
      methods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS'],
      allowedHeaders: [
        'Authorization',
        'Content-Type',
        'Idempotency-Key',
        'If-Match',
        'If-None-Match',
        // A stream resumed by a script's own fetch (EventSource sends it as the browser's).
        'Last-Event-ID',
        'X-Request-Id',
      ],
      exposedHeaders: [
        'Allow',
        'ETag',
        'Link',
        'Location',
        'Project-Revision',
        'Retry-After',
        'WWW-Authenticate',
        'X-Request-Id',
        ...RATE_LIMIT_HEADER_NAMES,
      ],
      maxAge: 600,
    }),
  );
  setUpOpenApi(app);
  await app.init();
  return app;
}
