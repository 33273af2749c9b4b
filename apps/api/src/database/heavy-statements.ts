/** Answers of at least this size count as heavy: building them keeps a server core busy. */
export const HEAVY_ANSWER_BYTES = 1024 * 1024;
// A hint per statement and parameters; bounded, the least recently used forgotten first.
const MAX_REMEMBERED = 10_000;

/**
 * Remembers which reads gave a large answer last time (a whole project near its size limit),
 * so that the next run of the same read is admitted as heavy before it starts: a connection is
 * cheap to hold, building a document of several MiB is not. A hint in this process only: a
 * wrong one merely admits one read as light or heavy; state stays in PostgreSQL. Statements
 * that never answered large cost nothing here (no key is built for them).
 */
export class HeavyStatements {
  private readonly sizes = new Map<string, number>();
  private readonly everHeavy = new Set<string>();

  isHeavy(statementName: string, params: object): boolean {
    if (!this.everHeavy.has(statementName)) return false;
    return (this.sizes.get(keyOf(statementName, params)) ?? 0) >= HEAVY_ANSWER_BYTES;
  }

  /**
   * Notes how large the answer was (the strings of its first row: the documents), and returns
   * that size when it was heavy, else 0.
   */
  record(statementName: string, params: object, rows: readonly unknown[]): number {
    const size = answerSize(rows[0]);
    if (size < HEAVY_ANSWER_BYTES) {
      if (this.everHeavy.has(statementName)) this.sizes.delete(keyOf(statementName, params));
      return 0;
    }
    this.everHeavy.add(statementName);
    const key = keyOf(statementName, params);
    this.sizes.delete(key);
    this.sizes.set(key, size);
    if (this.sizes.size > MAX_REMEMBERED) {
      const oldest = this.sizes.keys().next().value;
      if (oldest !== undefined) this.sizes.delete(oldest);
    }
    return size;
  }
}

function keyOf(statementName: string, params: object): string {
  return `${statementName}\u0000${JSON.stringify(params)}`;
}

function answerSize(row: unknown): number {
  if (typeof row !== 'object' || row === null) return 0;
  let size = 0;
  for (const value of Object.values(row)) if (typeof value === 'string') size += value.length;
  return size;
}
