import { DocumentCache } from './document-cache';

describe('DocumentCache', () => {
  const cacheOf = (readCacheBytes: number) => new DocumentCache({ readCacheBytes });

  it('finds the kept bytes of the revision kept, and nothing for another revision', () => {
    const cache = cacheOf(64 * 1024);
    expect(cache.holds('columns.list r1')).toBe(false);
    const kept = cache.keep('columns.list r1', 4, '[{"_id":"c1"}]');
    expect(kept).toEqual(Buffer.from('[{"_id":"c1"}]'));
    expect(cache.holds('columns.list r1')).toBe(true);
    expect(cache.find('columns.list r1', 4)).toBe(kept);
    expect(cache.find('columns.list r1', 5)).toBeUndefined();
    expect(cache.find('columns.list r2', 4)).toBeUndefined();
  });

  it('keeps the UTF-8 bytes of the text, byte for byte, in memory of their own', () => {
    const cache = cacheOf(64 * 1024);
    const text = '{"html":"<p>Café – ✓ 😀</p>"}';
    const kept = cache.keep('contents.content c1', 1, text);
    expect(kept?.equals(Buffer.from(text, 'utf8'))).toBe(true);
    // Not a slice of Node's shared pool, which it would hold whole.
    expect(kept?.byteOffset).toBe(0);
    expect(kept?.buffer.byteLength).toBe(kept?.length);
  });

  it('keeps one revision per resource: the one built last', () => {
    const cache = cacheOf(64 * 1024);
    cache.keep('rows.row r1', 3, '{"v":3}');
    cache.keep('rows.row r1', 5, '{"v":5}');
    expect(cache.find('rows.row r1', 3)).toBeUndefined();
    expect(cache.find('rows.row r1', 5)?.toString()).toBe('{"v":5}');
  });

  it('keeps no document over a quarter of its budget, and then no older revision either', () => {
    const cache = cacheOf(4000);
    expect(cache.keep('projects.project p1', 1, 'x'.repeat(900))).toBeDefined();
    expect(cache.keep('projects.project p1', 2, 'x'.repeat(1001))).toBeUndefined();
    expect(cache.holds('projects.project p1')).toBe(false);
    // Characters that take more than one byte count as bytes.
    expect(cache.keep('projects.project p2', 1, 'é'.repeat(501))).toBeUndefined();
    expect(cache.keep('projects.project p2', 1, 'é'.repeat(500))).toBeDefined();
  });

  it('stays within its budget, the least recently used going first', () => {
    const cache = cacheOf(4000);
    const document = 'x'.repeat(900);
    cache.keep('a', 1, document);
    cache.keep('b', 1, document);
    cache.keep('c', 1, document);
    expect(cache.find('a', 1)).toBeDefined(); // a is now the most recently used
    cache.keep('d', 1, document);
    expect(cache.holds('b')).toBe(false);
    expect(['a', 'c', 'd'].map((resource) => cache.holds(resource))).toEqual([true, true, true]);
  });

  it('keeps nothing with a budget of 0', () => {
    const cache = cacheOf(0);
    expect(cache.keep('a', 1, '{}')).toBeUndefined();
    expect(cache.holds('a')).toBe(false);
  });
});
