/**
 * A validated body's value as plain JSON data: class instances become plain objects, and
 * members left undefined are dropped at every depth, as JSON drops them. (structuredClone did
 * the same job for a create's `data` at several times the cost: it serialises.)
 */
export function plainJsonOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainJsonOf);
  if (value === null || typeof value !== 'object') return value;
  const plain: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (member !== undefined) plain[key] = plainJsonOf(member);
  }
  return plain;
}
