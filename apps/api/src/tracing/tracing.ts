import { type FastifyInstance } from 'fastify';
import { type UnitOfWorkTracer } from '../database/transaction-observers';

/**
 * The process's tracing once started (start-tracing.ts): what the application wires in. With
 * OTEL_EXPORTER_OTLP_ENDPOINT unset there is none, and nothing of OpenTelemetry is loaded.
 */
export interface Tracing {
  /** Makes each request of `fastify` a span; called before any route or hook is added. */
  traceRequests(fastify: FastifyInstance): Promise<void>;
  /** Makes each unit of work (Database.transaction) a span beneath its request's. */
  readonly units: UnitOfWorkTracer;
  /** Exports the spans still held, then stops. */
  shutdown(): Promise<void>;
}
