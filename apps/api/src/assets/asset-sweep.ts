import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { outsideAnyRequest } from '../common/logging/request-context';
import { Database } from '../database/database';
import { AssetsRepository } from './assets.repository';
import { ASSET_STORE, type AssetStore } from './store/asset-store';

/** How often every instance looks for assets of deleted accounts that nothing names any more. */
const SWEEP_EVERY_MS = 10_000;
/** Assets deleted per statement. */
const BATCH = 100;

/**
 * Deleting an account keeps its assets that projects still name (their account set to none,
 * counted against nobody): they go once nothing names them. Any instance deletes such rows (a
 * batch at a time, `SKIP LOCKED`), then their bytes; bytes whose removal fails stay, logged.
 */
@Injectable()
export class AssetSweep implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('AssetSweep');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    private readonly assets: AssetsRepository,
    @Inject(ASSET_STORE) private readonly store: AssetStore,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), SWEEP_EVERY_MS).unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One sweep (a test may run one); resolves when it is done. */
  sweep(): Promise<void> {
    this.running ??= outsideAnyRequest(() => this.sweepAll()).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async sweepAll(): Promise<void> {
    try {
      for (;;) {
        const { deleted, locked } = await this.db.transaction((round) =>
          this.assets.sweepUnowned(round, BATCH),
        );
        for (const id of deleted) {
          await this.store.delete(id).catch(() => {
            this.logger.warn(`The bytes of asset ${id} could not be removed from the store`);
          });
        }
        if (locked < BATCH) return;
      }
    } catch (error) {
      this.logger.warn(`Sweeping the assets of deleted accounts failed (${String(error)})`);
    }
  }
}
