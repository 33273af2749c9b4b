import { context, diag, DiagLogLevel, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { Logger } from '@nestjs/common';
import { type TracingConfig } from '../config/app-config';
import { nameRequestSpan, nameTheAccount } from './request-spans';
import { type Tracing } from './tracing';
import { UnitOfWorkSpans } from './unit-of-work-spans';

/** The tracer of the service's own spans (the units of work). */
const TRACER_NAME = 'proposal-layout-service';

/**
 * Starts OpenTelemetry's tracing for this process and exports spans over OTLP/HTTP (JSON) to
 * `<endpoint>/v1/traces`, as OpenTelemetry's exporters read OTEL_EXPORTER_OTLP_ENDPOINT. It
 * must run before `pg` is first loaded (main.ts loads the application after it): the pg
 * instrumentation patches the module as it is required. Only this file loads the SDK, and only
 * main.ts loads this file, when tracing is on.
 *
 * A trace context that comes in `traceparent` is continued (W3C Trace Context); the statements'
 * spans carry their SQL with placeholders, never the values bound to them.
 */
export function startTracing(config: TracingConfig & { endpoint: string }): Tracing {
  const logger = new Logger('Tracing');
  diag.setLogger(
    {
      error: (message) => logger.error(message),
      warn: (message) => logger.warn(message),
      info: () => undefined,
      debug: () => undefined,
      verbose: () => undefined,
    },
    DiagLogLevel.WARN,
  );
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.serviceName }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: tracesUrl(config.endpoint) }),
      }),
    ],
  });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  // Statements outside any request (the feeds' reads, the purge) make no traces of their own.
  new PgInstrumentation({ requireParentSpan: true });
  const requests = new FastifyOtelInstrumentation({
    // The request's span, and the units of work and statements beneath it: no span per hook.
    instrumentHooks: false,
    instrumentHandler: false,
    // An error's message may quote the request; the status code says enough.
    recordExceptions: false,
    requestHook: nameRequestSpan,
  });
  return {
    async traceRequests(fastify) {
      await fastify.register(requests.plugin());
      nameTheAccount(fastify);
    },
    units: new UnitOfWorkSpans(provider.getTracer(TRACER_NAME)),
    shutdown: () => provider.shutdown(),
  };
}

/** Where OTLP/HTTP takes traces, from the collector's base URL. */
function tracesUrl(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, '')}/v1/traces`;
}
