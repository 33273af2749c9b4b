import { type SqlSession } from '../../database/sql-session';
import { type CheckStatement, type SqlStatement } from '../../database/sql-statement';
import { CachedReads, cachedReads } from './cached-reads';
import { DocumentCache } from './document-cache';
import { type ReadDocument, TaggedReads } from './sql/tagged-reads';

interface NodeScope {
  accountId: string;
  nodeId: string;
}

const READS = new TaggedReads<NodeScope>(
  'cached-reads-spec.node',
  'FROM nodes n WHERE n.id = $nodeId AND n.owner_id = $accountId',
  'n.revision',
  'n.document',
);
const OWNER: NodeScope = { accountId: 'ada', nodeId: 'n1' };
const STRANGER: NodeScope = { accountId: 'eve', nodeId: 'n1' };

/**
 * One node of ada's, as the two statements find it. Each statement sees the node as it is when
 * it is sent; a document statement answers once `release` lets it (all at once by default).
 */
class FakeDatabase implements SqlSession {
  node = { owner: 'ada', revision: 1, document: '{"_id":"n1","v":1}' };
  readonly sent: string[] = [];
  /** The sizes of the answers admitted as kept. */
  readonly admitted: number[] = [];
  private held: (() => void)[] | undefined;

  change(document: string): void {
    this.node = { ...this.node, revision: this.node.revision + 1, document };
  }

  /** Holds the document statements sent from now on, until `release`. */
  hold(): void {
    this.held = [];
  }

  release(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const go of held) go();
  }

  async rows<P extends object, R>(statement: SqlStatement<P, R>, params: P): Promise<R[]> {
    this.sent.push(statement.name.split('.').pop() ?? '');
    const scope = params as unknown as NodeScope;
    const { owner, revision, document } = this.node;
    if (scope.accountId !== owner || scope.nodeId !== 'n1') return [];
    if (statement.name === READS.revisionStatement.name) return [{ revision } as R];
    if (this.held) await new Promise<void>((go) => this.held?.push(go));
    return [{ revision, json: document } as R];
  }

  async row<P extends object, R>(statement: SqlStatement<P, R>, params: P) {
    return (await this.rows(statement, params))[0];
  }

  check<P extends object, R>(statement: CheckStatement<P, R>, params: P) {
    return this.row(statement, params);
  }

  admitKept(bytes: number): Promise<void> {
    this.admitted.push(bytes);
    return Promise.resolve();
  }
}

const textOf = (found: ReadDocument | undefined) =>
  found === undefined ? undefined : found.json.toString();

describe('CachedReads', () => {
  let db: FakeDatabase;
  let reads: CachedReads<NodeScope>;

  beforeEach(() => {
    db = new FakeDatabase();
    reads = new CachedReads(READS, new DocumentCache({ readCacheBytes: 1024 * 1024 }));
  });

  it('builds a document it does not keep at once, then serves its bytes on a check of the revision alone', async () => {
    const first = await reads.document(db, OWNER);
    expect(db.sent).toEqual(['document']);
    expect(first?.revision).toBe(1);
    expect(first?.json).toEqual(Buffer.from('{"_id":"n1","v":1}'));

    const again = await reads.document(db, OWNER);
    expect(db.sent).toEqual(['document', 'revision']);
    expect(again).toEqual({ revision: 1, json: first?.json });
    expect(again?.json).toBe(first?.json);
    // What it built was admitted as its statement ran; what it kept is admitted as it is served.
    expect(db.admitted).toEqual([first?.json.length]);
  });

  it('serves no kept bytes that the account may not take now', async () => {
    await reads.document(db, OWNER);
    const refusal = new Error('too many concurrent requests');
    db.admitKept = () => Promise.reject(refusal);
    await expect(reads.document(db, OWNER)).rejects.toBe(refusal);
  });

  it('builds the document again once it changed, and serves the new bytes', async () => {
    await reads.document(db, OWNER);
    db.change('{"_id":"n1","v":2}');
    const changed = await reads.document(db, OWNER);
    expect(db.sent).toEqual(['document', 'revision', 'document']);
    expect(changed?.revision).toBe(2);
    expect(textOf(changed)).toBe('{"_id":"n1","v":2}');
    await reads.document(db, OWNER);
    expect(db.sent).toEqual(['document', 'revision', 'document', 'revision']);
  });

  it('serves another account nothing, kept bytes or not, and keeps nothing for it', async () => {
    expect(await reads.document(db, STRANGER)).toBeUndefined();
    expect(await reads.document(db, OWNER)).toBeDefined();
    expect(await reads.document(db, STRANGER)).toBeUndefined();
    expect(db.sent).toEqual(['document', 'document', 'revision']);
  });

  it('serves the kept bytes of a revision the caller checked without any statement', async () => {
    const built = await reads.document(db, OWNER);
    const sent = db.sent.length;
    expect(await reads.documentAt(db, OWNER, 1)).toEqual(built);
    expect(db.sent).toHaveLength(sent);
    // A revision it does not keep is built.
    db.change('{"_id":"n1","v":2}');
    expect(textOf(await reads.documentAt(db, OWNER, 2))).toBe('{"_id":"n1","v":2}');
    expect(db.sent.slice(sent)).toEqual(['document']);
  });

  it('lets the reads that find a change at once share one build', async () => {
    await reads.document(db, OWNER);
    db.change('{"_id":"n1","v":2}');
    db.hold();
    const readers = Array.from({ length: 5 }, () => reads.document(db, OWNER));
    await new Promise((resolve) => setImmediate(resolve));
    db.release();
    const answers = await Promise.all(readers);
    expect(answers.map((found) => found?.revision)).toEqual([2, 2, 2, 2, 2]);
    expect(new Set(answers.map((found) => found?.json)).size).toBe(1);
    expect(db.sent.filter((name) => name === 'document')).toHaveLength(2);
    expect(db.sent.filter((name) => name === 'revision')).toHaveLength(5);
    // The four that shared the build did not build what they answer.
    expect(db.admitted).toHaveLength(4);
  });

  it('lets a read that starts while the first one builds share that build, after its own check', async () => {
    db.hold();
    const first = reads.document(db, OWNER);
    const second = reads.document(db, OWNER);
    const stranger = reads.document(db, STRANGER);
    await new Promise((resolve) => setImmediate(resolve));
    db.release();
    expect(textOf(await first)).toBe('{"_id":"n1","v":1}');
    expect(textOf(await second)).toBe('{"_id":"n1","v":1}');
    expect(await stranger).toBeUndefined();
    expect(db.sent.sort()).toEqual(['document', 'revision', 'revision']);
  });

  it('does not serve a build that started before the change a read found', async () => {
    db.hold();
    const before = reads.document(db, OWNER);
    await new Promise((resolve) => setImmediate(resolve));
    db.change('{"_id":"n1","v":2}');
    const after = reads.document(db, OWNER);
    await new Promise((resolve) => setImmediate(resolve));
    db.release();
    expect((await before)?.revision).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    db.release();
    expect(textOf(await after)).toBe('{"_id":"n1","v":2}');
    expect(db.sent).toEqual(['document', 'revision', 'document']);
  });

  it('builds a document too large to keep on every read', async () => {
    const small = new CachedReads(READS, new DocumentCache({ readCacheBytes: 40 }));
    expect(textOf(await small.document(db, OWNER))).toBe('{"_id":"n1","v":1}');
    expect(textOf(await small.document(db, OWNER))).toBe('{"_id":"n1","v":1}');
    expect(db.sent).toEqual(['document', 'document']);
  });

  it('is the reads themselves without a cache', () => {
    expect(cachedReads(READS, undefined)).toBe(READS);
    expect(cachedReads(READS, new DocumentCache({ readCacheBytes: 0 }))).toBeInstanceOf(
      CachedReads,
    );
  });
});
