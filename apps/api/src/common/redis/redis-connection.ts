import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { type RedisConfig } from '../../config/app-config';

/** How long a start waits for Redis before serving with in-memory counters. */
const CONNECT_TIMEOUT_MS = 2000;
/** A slower answer counts as an outage: the request goes on with in-memory counters. */
const COMMAND_TIMEOUT_MS = 1000;

/**
 * The process's one Redis client, or none when REDIS_URL is unset. It is opened before the
 * application serves and closed when it stops. Redis being down never stops the service: the
 * start goes on after a warning, the client keeps reconnecting in the background, and commands
 * fail at once (no offline queue) so that callers fall back to memory instead of waiting.
 */
export class RedisConnection implements OnApplicationShutdown {
  private static readonly logger = new Logger('Redis');
  private reachable = true;

  private constructor(
    readonly client: Redis | undefined,
    private readonly address: string,
  ) {
    client?.on('error', (error: Error) => this.markUnreachable(error));
    client?.on('ready', () => this.markReachable());
  }

  static async open(config: RedisConfig): Promise<RedisConnection> {
    if (config.url === undefined) return new RedisConnection(undefined, '');
    const url = new URL(config.url);
    // host:port only: the URL may carry a password.
    const address = `${url.hostname}:${url.port || '6379'}`;
    const client = new Redis(config.url, {
      lazyConnect: true,
      connectionName: 'layout-service',
      connectTimeout: CONNECT_TIMEOUT_MS,
      commandTimeout: COMMAND_TIMEOUT_MS,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      enableAutoPipelining: true,
      retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
      // Also how long a timer outlives a connection that failed (ioredis): keeps stops quick.
      disconnectTimeout: 500,
    });
    const connection = new RedisConnection(client, address);
    try {
      await client.connect();
      RedisConnection.logger.log(
        `Connected to ${address}: rate-limit and failed sign-in counters are shared`,
      );
    } catch {
      // Already reported by the error listener; the client goes on reconnecting.
    }
    return connection;
  }

  async onApplicationShutdown() {
    if (!this.client) return;
    this.client.removeAllListeners('error');
    this.client.on('error', () => undefined);
    try {
      await this.client.quit();
    } catch {
      this.client.disconnect();
    }
  }

  private markUnreachable(error: Error) {
    if (!this.reachable) return;
    this.reachable = false;
    RedisConnection.logger.warn(
      `Redis at ${this.address} is unreachable (${error.message}): counters are kept in this ` +
        'process until it answers again',
    );
  }

  private markReachable() {
    if (this.reachable) return;
    this.reachable = true;
    RedisConnection.logger.log(`Redis at ${this.address} answers again`);
  }
}
