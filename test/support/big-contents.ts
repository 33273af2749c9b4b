/**
 * A quote content whose `data` is exactly `bytes` long as JSON: items of text notes (a text
 * content's HTML is capped below the data limit, a quote's items are not). For filling a
 * project towards its size limit.
 */
export function quoteOf(bytes: number) {
  const items: { id: string; note: string }[] = [];
  const size = () => Buffer.byteLength(JSON.stringify({ content: { items } }));
  while (size() < bytes) items.push({ id: `i${items.length}`, note: 'q'.repeat(9_000) });
  const last = items[items.length - 1];
  last.note = last.note.slice(0, last.note.length - (size() - bytes));
  if (size() !== bytes) throw new Error(`quoteOf(${bytes}) made ${size()} bytes`);
  return { type: 'quote', data: { content: { items } } };
}
