import { jest } from '@jest/globals';
import { MemoryCounterStore } from './memory-counter-store';

const START = Date.parse('2025-03-01T12:00:00Z');

describe('MemoryCounterStore', () => {
  let now: number;

  beforeEach(() => {
    now = START;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
  });

  afterEach(() => jest.restoreAllMocks());

  it('counts within a window opened by the first increment', async () => {
    const store = new MemoryCounterStore();
    await expect(store.increment('a', 60_000)).resolves.toEqual({ count: 1, resetInMs: 60_000 });
    now += 15_000;
    await expect(store.increment('a', 60_000)).resolves.toEqual({ count: 2, resetInMs: 45_000 });
    await expect(store.peek('a')).resolves.toEqual({ count: 2, resetInMs: 45_000 });
  });

  it('starts again from zero once the window has closed', async () => {
    const store = new MemoryCounterStore();
    await store.increment('a', 60_000);
    await store.increment('a', 60_000);
    now += 60_000;
    await expect(store.peek('a')).resolves.toBeUndefined();
    await expect(store.increment('a', 60_000)).resolves.toEqual({ count: 1, resetInMs: 60_000 });
  });

  it('keeps keys apart, and reset closes one window only', async () => {
    const store = new MemoryCounterStore();
    await store.increment('a', 60_000);
    await store.increment('b', 60_000);
    await store.reset('a');
    await expect(store.peek('a')).resolves.toBeUndefined();
    await expect(store.peek('b')).resolves.toEqual({ count: 1, resetInMs: 60_000 });
  });

  it('stays bounded: closed windows go first, then the oldest open ones', async () => {
    const store = new MemoryCounterStore(10);
    for (let i = 0; i < 5; i += 1) await store.increment(`short-${i}`, 1_000);
    for (let i = 0; i < 5; i += 1) await store.increment(`long-${i}`, 60_000);
    now += 1_000;
    await store.increment('long-5', 60_000);
    for (let i = 0; i < 5; i += 1) await expect(store.peek(`long-${i}`)).resolves.toBeDefined();

    for (let i = 6; i < 20; i += 1) await store.increment(`long-${i}`, 60_000);
    await expect(store.peek('long-0')).resolves.toBeUndefined();
    await expect(store.peek('long-19')).resolves.toEqual({ count: 1, resetInMs: 60_000 });
  });
});
