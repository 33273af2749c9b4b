import { jest } from '@jest/globals';
import { NoticedEntries } from './noticed-entries';

describe('NoticedEntries', () => {
  afterEach(() => jest.useRealTimers());

  it('keeps what a lookup found, unless something was dropped since it began', () => {
    const entries = new NoticedEntries<string>(1000, 10);
    const before = entries.generation();
    entries.dropKey('other');
    entries.set('k', 'stale', before);
    expect(entries.get('k')).toBeUndefined();
    entries.set('k', 'fresh', entries.generation());
    expect(entries.get('k')).toBe('fresh');
    entries.drop((key, value) => key === 'k' && value === 'fresh');
    expect(entries.get('k')).toBeUndefined();
  });

  it('forgets an entry after its time, or its own end if sooner, and the oldest past the most', () => {
    jest.useFakeTimers({ now: 0 });
    const entries = new NoticedEntries<number>(1000, 2);
    entries.set('a', 1, entries.generation());
    entries.set('b', 2, entries.generation(), 500);
    jest.setSystemTime(600);
    expect([entries.get('a'), entries.get('b')]).toEqual([1, undefined]);
    entries.set('c', 3, entries.generation());
    entries.set('d', 4, entries.generation());
    expect([entries.get('a'), entries.get('c'), entries.get('d')]).toEqual([undefined, 3, 4]);
    jest.setSystemTime(1600);
    expect(entries.get('c')).toBeUndefined();
    entries.clear();
    expect(entries.get('d')).toBeUndefined();
  });
});
