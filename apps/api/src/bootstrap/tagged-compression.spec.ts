import { CompressedAnswers } from './tagged-compression';

describe('CompressedAnswers', () => {
  const bytes = (n: number) => Buffer.alloc(n);

  it('keeps answers within its byte budget, dropping the least recently used first', () => {
    const cache = new CompressedAnswers(10);
    cache.set('a', bytes(4));
    cache.set('b', bytes(4));
    expect(cache.get('a')?.length).toBe(4); // a is now the most recently used
    cache.set('c', bytes(4));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')?.length).toBe(4);
    expect(cache.get('c')?.length).toBe(4);
    expect(cache.size).toBe(8);
  });

  it('counts a replaced answer once', () => {
    const cache = new CompressedAnswers(10);
    cache.set('a', bytes(4));
    cache.set('a', bytes(6));
    expect(cache.size).toBe(6);
  });
});
