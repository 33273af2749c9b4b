import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { Logger, type OnModuleDestroy } from '@nestjs/common';
import { type Registry } from 'prom-client';
import { type MetricsConfig } from '../config/app-config';

/** What the listener serves: the scrape, and nothing else. */
export const METRICS_PATH = '/metrics';

/** The settings that say where it listens, for what a failed start tells the operator. */
export const METRICS_LISTEN_SETTINGS = { host: 'METRICS_HOST', port: 'METRICS_PORT' } as const;

/**
 * `GET /metrics` in Prometheus's text format, on a listener of its own (METRICS_HOST and
 * METRICS_PORT), never on the API's: a scrape passes no budget, guard or log of the API's, and
 * the API's port can face the internet while this one does not.
 */
export class MetricsServer implements OnModuleDestroy {
  private readonly logger = new Logger('Metrics');
  private readonly server: Server;

  constructor(
    private readonly registry: Registry,
    private readonly config: MetricsConfig & { port: number },
  ) {
    this.server = createServer((request, response) => void this.answer(request, response));
    // Prometheus keeps its connection between scrapes: it must not hold the shutdown.
    this.server.keepAliveTimeout = 5000;
  }

  /** Listens, once the application serves (main.ts); fails as `net.Server#listen` does. */
  async listen(): Promise<void> {
    const { host, port } = this.config;
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen({ host, port }, resolve);
    });
    this.logger.log(`Metrics on ${this.url()}`);
  }

  /** Where the scrape answers, such as `http://127.0.0.1:9464/metrics`. */
  url(): string {
    const { address, port } = this.server.address() as AddressInfo;
    const host = address.includes(':') ? `[${address}]` : address;
    return `http://${host}:${port}${METRICS_PATH}`;
  }

  /** Closed with the application, after the API's connections (graceful-shutdown.ts). */
  async onModuleDestroy(): Promise<void> {
    if (!this.server.listening) return;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = request.url?.split('?')[0];
    if (path !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(`Not found: the metrics are at ${METRICS_PATH}\n`);
      return;
    }
    try {
      const text = await this.registry.metrics();
      response.writeHead(200, { 'content-type': this.registry.contentType });
      response.end(request.method === 'HEAD' ? undefined : text);
    } catch (error) {
      this.logger.error(
        'Collecting the metrics failed',
        error instanceof Error ? error.stack : error,
      );
      response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Collecting the metrics failed\n');
    }
  }
}
