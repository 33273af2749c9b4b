import { type CounterStore, type WindowCount } from './counter-store';

interface Window {
  count: number;
  endsAt: number;
}

/**
 * Counters in this process's memory: the store without REDIS_URL, and the fallback while Redis
 * is unreachable. Bounded: past `maxKeys` windows, closed ones go first, then the oldest.
 */
export class MemoryCounterStore implements CounterStore {
  private readonly windows = new Map<string, Window>();

  constructor(private readonly maxKeys = 100_000) {}

  increment(key: string, windowMs: number): Promise<WindowCount> {
    const now = Date.now();
    let window = this.open(key, now);
    if (!window) {
      window = { count: 0, endsAt: now + windowMs };
      this.windows.set(key, window);
      this.bound(now);
    }
    window.count += 1;
    return Promise.resolve({ count: window.count, resetInMs: window.endsAt - now });
  }

  peek(key: string): Promise<WindowCount | undefined> {
    const now = Date.now();
    const window = this.open(key, now);
    return Promise.resolve(window && { count: window.count, resetInMs: window.endsAt - now });
  }

  reset(key: string): Promise<void> {
    this.windows.delete(key);
    return Promise.resolve();
  }

  private open(key: string, now: number): Window | undefined {
    const window = this.windows.get(key);
    if (window && window.endsAt <= now) {
      this.windows.delete(key);
      return undefined;
    }
    return window;
  }

  private bound(now: number) {
    if (this.windows.size <= this.maxKeys) return;
    for (const [key, window] of this.windows) {
      if (window.endsAt <= now) this.windows.delete(key);
    }
    // Still full of open windows: drop the oldest tenth, so that this sweep stays rare.
    const target = Math.floor(this.maxKeys * 0.9);
    for (const key of this.windows.keys()) {
      if (this.windows.size <= target) break;
      this.windows.delete(key);
    }
  }
}
