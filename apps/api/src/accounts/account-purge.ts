import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { outsideAnyRequest } from '../common/logging/request-context';
import { AccountPurgeRepository } from './account-purge.repository';

// How often every instance looks for deleted accounts left unpurged (a crash, a restart).
const SWEEP_EVERY_MS = 60_000;
// How soon it tries again when a project was being written (skipped) or the database failed.
const RETRY_MS = 1_000;
// Deleted accounts taken per sweep.
const ACCOUNTS_PER_SWEEP = 10;

type Outcome = 'idle' | 'more';

/**
 * Removes what deleted accounts owned. Deleting an account (AccountsService.deleteAccount) only
 * marks it, in one short transaction, so that it is gone for every reader at once whatever it
 * stored; its projects (up to 10 000 of up to 8 MiB) are deleted here afterwards, one project
 * per transaction, then the account row itself.
 *
 * Nothing of it lives in this process: the marks are in PostgreSQL and a project is taken with
 * `FOR UPDATE SKIP LOCKED`, so any number of instances may purge at once without meeting, and
 * whatever an instance leaves (a crash, a shutdown) the next sweep of any instance takes over.
 * The instance that deleted the account starts at once; every instance also sweeps at start and
 * every minute.
 */
@Injectable()
export class AccountPurge implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('AccountPurge');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private wokenWhileRunning = false;
  private stopped = false;
  private failing = false;

  constructor(private readonly repository: AccountPurgeRepository) {}

  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** An account was just deleted: purge now rather than at the next sweep. */
  wake(): void {
    if (this.running) this.wokenWhileRunning = true;
    else this.schedule(0);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.sweep(), delayMs);
    this.timer.unref();
  }

  private sweep(): void {
    if (this.running || this.stopped) return;
    this.wokenWhileRunning = false;
    this.running = this.purgeSome()
      .then(
        (outcome) => {
          this.recovered();
          return outcome;
        },
        (error: unknown): Outcome => {
          this.failed(error);
          return 'more';
        },
      )
      .then((outcome) => {
        this.running = undefined;
        const again = outcome === 'more' || this.wokenWhileRunning;
        this.schedule(again ? RETRY_MS : SWEEP_EVERY_MS);
      });
  }

  private async purgeSome(): Promise<Outcome> {
    const accounts = await this.repository.deletedAccounts(ACCOUNTS_PER_SWEEP);
    let outcome: Outcome = accounts.length < ACCOUNTS_PER_SWEEP ? 'idle' : 'more';
    for (const accountId of accounts) {
      if (!(await this.purge(accountId))) outcome = 'more';
    }
    return outcome;
  }

  /** True once the account is gone; false when it must be tried again. */
  private async purge(accountId: string): Promise<boolean> {
    let projects = 0;
    while (!this.stopped && (await this.repository.deleteOneProject(accountId))) projects += 1;
    if (this.stopped) return false;
    const gone = await this.repository.deleteIfPurged(accountId);
    if (gone) {
      outsideAnyRequest(() =>
        this.logger.log(`Deleted account ${accountId} purged (${projects} projects here)`),
      );
    }
    return gone;
  }

  private failed(error: unknown): void {
    if (this.failing) return;
    this.failing = true;
    const reason = error instanceof Error ? error.message : String(error);
    outsideAnyRequest(() =>
      this.logger.warn(`Purging deleted accounts failed (${reason}): trying again`),
    );
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    outsideAnyRequest(() => this.logger.log('Purging deleted accounts again'));
  }
}
