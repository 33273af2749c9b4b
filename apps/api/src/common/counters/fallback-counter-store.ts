import { Logger } from '@nestjs/common';
import { type CounterStore, type WindowCount } from './counter-store';
import { OutageNotice } from './outage-notice';

/**
 * The shared store while it answers, this process's memory while it does not: a Redis outage
 * turns the shared budgets into per-instance ones (logged once), never into failed requests.
 */
export class FallbackCounterStore implements CounterStore {
  private readonly outage = new OutageNotice(
    new Logger('RateLimit'),
    'request budgets are counted per instance',
  );

  constructor(
    private readonly shared: CounterStore,
    private readonly local: CounterStore,
  ) {}

  increment(key: string, windowMs: number): Promise<WindowCount> {
    return this.attempt(
      () => this.shared.increment(key, windowMs),
      () => this.local.increment(key, windowMs),
    );
  }

  peek(key: string): Promise<WindowCount | undefined> {
    return this.attempt(
      () => this.shared.peek(key),
      () => this.local.peek(key),
    );
  }

  reset(key: string): Promise<void> {
    return this.attempt(
      () => this.shared.reset(key),
      () => this.local.reset(key),
    );
  }

  private async attempt<T>(shared: () => Promise<T>, local: () => Promise<T>): Promise<T> {
    try {
      const result = await shared();
      this.outage.succeeded();
      return result;
    } catch (error) {
      this.outage.failed(error);
      return local();
    }
  }
}
