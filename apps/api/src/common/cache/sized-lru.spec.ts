import { SizedLru } from './sized-lru';

describe('SizedLru', () => {
  const bytes = (n: number) => Buffer.alloc(n);
  const byLength = (_key: string, value: Buffer) => value.length;

  it('keeps entries within its budget, dropping the least recently used first', () => {
    const cache = new SizedLru(10, byLength);
    cache.set('a', bytes(4));
    cache.set('b', bytes(4));
    expect(cache.get('a')?.length).toBe(4); // a is now the most recently used
    cache.set('c', bytes(4));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.length).toBe(4);
    expect(cache.get('c')?.length).toBe(4);
    expect(cache.size).toBe(8);
  });

  it('counts a replaced entry once', () => {
    const cache = new SizedLru(10, byLength);
    cache.set('a', bytes(4));
    cache.set('a', bytes(6));
    expect(cache.size).toBe(6);
  });

  it('keeps nothing larger than its whole budget', () => {
    const cache = new SizedLru(10, byLength);
    cache.set('big', bytes(11));
    expect(cache.get('big')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('forgets a deleted entry and what it counted, and ignores a key it does not hold', () => {
    const cache = new SizedLru(10, byLength);
    cache.set('a', bytes(4));
    cache.set('b', bytes(3));
    cache.delete('a');
    cache.delete('missing');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')?.length).toBe(3);
    expect(cache.size).toBe(3);
  });

  it('counts the key too when its size function says so', () => {
    const cache = new SizedLru<string>(10, (key, value) => key.length + value.length);
    cache.set('abc', 'de');
    expect(cache.size).toBe(5);
  });
});
