import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { type CounterStore } from './counter-store';
import { FallbackCounterStore } from './fallback-counter-store';
import { MemoryCounterStore } from './memory-counter-store';

/** A shared store that can be switched off, as Redis going away would. */
function switchableStore() {
  const backing = new MemoryCounterStore();
  const state = { up: true };
  const guard = <T>(operation: () => Promise<T>) =>
    state.up ? operation() : Promise.reject(new Error('connect ECONNREFUSED'));
  const store: CounterStore = {
    increment: (key, windowMs) => guard(() => backing.increment(key, windowMs)),
    peek: (key) => guard(() => backing.peek(key)),
    reset: (key) => guard(() => backing.reset(key)),
  };
  return { store, state };
}

describe('FallbackCounterStore', () => {
  let warn: jest.SpiedFunction<Logger['warn']>;
  let log: jest.SpiedFunction<Logger['log']>;

  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });

  afterEach(() => jest.restoreAllMocks());

  it('counts in the shared store while it answers', async () => {
    const shared = switchableStore();
    const store = new FallbackCounterStore(shared.store, new MemoryCounterStore());
    await store.increment('k', 60_000);
    await store.increment('k', 60_000);
    await expect(shared.store.peek('k')).resolves.toMatchObject({ count: 2 });
    expect(warn).not.toHaveBeenCalled();
  });

  it('counts in memory while the shared store fails, warning once, and goes back when it answers', async () => {
    const shared = switchableStore();
    const store = new FallbackCounterStore(shared.store, new MemoryCounterStore());
    await store.increment('k', 60_000);

    shared.state.up = false;
    await expect(store.increment('k', 60_000)).resolves.toMatchObject({ count: 1 });
    await expect(store.increment('k', 60_000)).resolves.toMatchObject({ count: 2 });
    await expect(store.peek('k')).resolves.toMatchObject({ count: 2 });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0][0]).toContain('ECONNREFUSED');

    shared.state.up = true;
    await expect(store.increment('k', 60_000)).resolves.toMatchObject({ count: 2 });
    expect(log).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
