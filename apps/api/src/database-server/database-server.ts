import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { type DatabaseConfig } from '../config/app-config';
import {
  startEmbeddedPostgres,
  type RunningEmbeddedPostgres,
} from '../embedded-postgres/embedded-postgres';
import { applyPendingMigrations } from './migrations-runner';

/**
 * The PostgreSQL the service talks to: the one named by DATABASE_URL, or an embedded one that
 * this process starts and stops. Pending migrations are applied before anything else uses it.
 */
export class DatabaseServer implements OnApplicationShutdown {
  private static readonly logger = new Logger('Database');

  private constructor(
    readonly url: string,
    private readonly embedded: RunningEmbeddedPostgres | undefined,
  ) {}

  static async start(config: DatabaseConfig): Promise<DatabaseServer> {
    const logger = DatabaseServer.logger;
    let embedded: RunningEmbeddedPostgres | undefined;
    let url = config.url;
    if (url === undefined) {
      embedded = await startEmbeddedPostgres({
        dataDir: config.embedded.dataDir,
        port: config.embedded.port,
        onLog: (line) => logger.debug(line),
        onNotice: (line) => logger.warn(line),
      });
      url = embedded.url;
      logger.log(
        `Embedded PostgreSQL on port ${config.embedded.port}, data in ${embedded.dataDir}`,
      );
    }
    try {
      if (config.migrateOnStart) await applyPendingMigrations(url, logger);
    } catch (error) {
      await embedded?.stop();
      throw error;
    }
    return new DatabaseServer(url, embedded);
  }

  // Runs after every onModuleDestroy hook, so the Prisma pool is already closed.
  async onApplicationShutdown() {
    if (this.embedded) {
      await this.embedded.stop();
      DatabaseServer.logger.log('Embedded PostgreSQL stopped');
    }
  }
}
