import { type DynamicModule, Global, Module, type Provider } from '@nestjs/common';
import { type Pool } from 'pg';
import { collectDefaultMetrics } from 'prom-client';
import { type AppConfig } from '../config/app-config';
import { DATABASE_POOL } from '../database/database-pool';
import { COMMIT_OBSERVER } from '../database/transaction-observers';
import { Metrics } from './metrics';
import { MetricsServer } from './metrics-server';
import { registerPoolMetrics } from './pool-metrics';

/**
 * The service's metrics. `Metrics` is always there for the features to count with; with
 * METRICS_PORT set, the group commits are observed too, and MetricsServer shows it all, with the
 * pool's and the process's own metrics (the request durations are recorded by createApp).
 */
@Global()
@Module({})
export class MetricsModule {
  static forRoot(config: AppConfig): DynamicModule {
    const port = config.metrics.port;
    const providers: Provider[] = [Metrics];
    if (port !== undefined) {
      providers.push(
        { provide: COMMIT_OBSERVER, useExisting: Metrics },
        {
          provide: MetricsServer,
          inject: [Metrics, DATABASE_POOL],
          useFactory: (metrics: Metrics, pool: Pool) => {
            collectDefaultMetrics({ register: metrics.registry });
            registerPoolMetrics(metrics.registry, pool, config.database.poolSize);
            return new MetricsServer(metrics.registry, { ...config.metrics, port });
          },
        },
      );
    }
    return {
      module: MetricsModule,
      providers,
      exports: port === undefined ? [Metrics] : [Metrics, COMMIT_OBSERVER, MetricsServer],
    };
  }
}
