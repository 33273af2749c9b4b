import { type Logger } from '@nestjs/common';

/**
 * Logs a shared store's outage once when it starts and once when it ends, rather than on every
 * failed request.
 */
export class OutageNotice {
  private failing = false;

  constructor(
    private readonly logger: Logger,
    private readonly whileDown: string,
  ) {}

  failed(error: unknown) {
    if (this.failing) return;
    this.failing = true;
    const reason = error instanceof Error ? error.message : String(error);
    this.logger.warn(`Redis failed (${reason}): ${this.whileDown} until it answers again`);
  }

  succeeded() {
    if (!this.failing) return;
    this.failing = false;
    this.logger.log('Redis answers again: counters are shared again');
  }
}
