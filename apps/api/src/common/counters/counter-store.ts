/** A counter inside a fixed time window. */
export interface WindowCount {
  readonly count: number;
  /** Milliseconds until the window closes and the counter starts again from zero. */
  readonly resetInMs: number;
}

/**
 * Counters that live for a fixed window, opened by their first increment: the primitive behind
 * the request budgets and the failed sign-in counts. Implemented in memory and over Redis.
 */
export interface CounterStore {
  /** Adds one, opening a window of `windowMs` when none is open; answers the new count. */
  increment(key: string, windowMs: number): Promise<WindowCount>;
  /** The count without changing it; `undefined` when no window is open. */
  peek(key: string): Promise<WindowCount | undefined>;
  /** Closes the window. */
  reset(key: string): Promise<void>;
}
