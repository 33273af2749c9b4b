import { jest } from '@jest/globals';
import { Deadlines } from './deadlines';

describe('Deadlines', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('fires a deadline that passed, at most one tick late, and only once', async () => {
    const deadlines = new Deadlines(100);
    const fired: string[] = [];
    deadlines.watch(250, () => fired.push('first'));
    deadlines.watch(1000, () => fired.push('second'));
    await jest.advanceTimersByTimeAsync(200);
    expect(fired).toEqual([]);
    await jest.advanceTimersByTimeAsync(100);
    expect(fired).toEqual(['first']);
    await jest.advanceTimersByTimeAsync(800);
    expect(fired).toEqual(['first', 'second']);
    await jest.advanceTimersByTimeAsync(1000);
    expect(fired).toEqual(['first', 'second']);
  });

  it('never fires a deadline settled in time, and stops ticking when none is left', async () => {
    const deadlines = new Deadlines(100);
    const fired: string[] = [];
    const settled = deadlines.watch(150, () => fired.push('late'));
    await jest.advanceTimersByTimeAsync(100);
    settled();
    await jest.advanceTimersByTimeAsync(500);
    expect(fired).toEqual([]);
    expect(jest.getTimerCount()).toBe(0);
  });
});
