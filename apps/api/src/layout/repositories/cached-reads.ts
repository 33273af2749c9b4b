import { type SqlSession } from '../../database/sql-session';
import { type Pending, type Round } from '../../database/unit-of-work';
import { type DocumentCache } from './document-cache';
import { type ReadDocument, type TaggedDocument, type TaggedReads } from './sql/tagged-reads';

/**
 * The reads of one resource (TaggedReads), serving again the bytes of a representation this
 * instance has built already. Every editor of a proposal reads again after each change it hears
 * of, so each revision is read many times: the revision statement, one small index lookup, says
 * whether the kept bytes are still the representation, where the document statement builds a
 * whole subtree. It also checks that the caller is a member of the project, as the document
 * statement does, which is why the account is no part of what names the resource: an account
 * that is not a member gets no document, kept or not.
 *
 * Reads of one resource that find nothing kept at once share one build: every open editor reads
 * again at the same moment, after the same change.
 */
export class CachedReads<P extends object> implements TaggedReads<P> {
  readonly documentStatement: TaggedReads<P>['documentStatement'];
  readonly revisionStatement: TaggedReads<P>['revisionStatement'];
  /** By resource, the build under way. */
  private readonly building = new Map<string, Promise<ReadDocument | undefined>>();

  constructor(
    private readonly reads: TaggedReads<P>,
    private readonly cache: DocumentCache,
  ) {
    this.documentStatement = reads.documentStatement;
    this.revisionStatement = reads.revisionStatement;
  }

  /**
   * The current document. One this instance neither keeps nor is building is built at once:
   * then checking its revision first would only add a round trip.
   */
  async document(db: SqlSession, params: P): Promise<ReadDocument | undefined> {
    const resource = this.reads.identity(params);
    if (!this.cache.holds(resource) && !this.building.has(resource)) {
      return this.build(db, params, resource);
    }
    const revision = await this.reads.revision(db, params);
    return revision === undefined ? undefined : this.documentAt(db, params, revision);
  }

  /**
   * The document, once the caller has read its revision (which checked the caller's membership): the kept
   * bytes of that revision, else those of a build under way when it finds that revision too,
   * else a build of its own. An answer it did not build is admitted as a kept one (a large one
   * costs its account's share of the heavy reads all the same).
   */
  async documentAt(db: SqlSession, params: P, revision: number): Promise<ReadDocument | undefined> {
    const resource = this.reads.identity(params);
    const kept = this.cache.find(resource, revision);
    if (kept !== undefined) return this.answer(db, { revision, json: kept });
    const underWay = this.building.get(resource);
    if (underWay !== undefined) {
      // Another read's build, which may have started before the change this read found, and
      // whose failure (its own client gone, say) is no answer to this read.
      const built = await underWay.catch(() => undefined);
      if (built?.revision === revision) return this.answer(db, built);
    }
    return this.build(db, params, resource);
  }

  documentIn(round: Round, params: P): Pending<TaggedDocument | undefined> {
    return this.reads.documentIn(round, params);
  }

  revision(db: SqlSession, params: P): Promise<number | undefined> {
    return this.reads.revision(db, params);
  }

  identity(params: P): string {
    return this.reads.identity(params);
  }

  private async answer(db: SqlSession, document: ReadDocument): Promise<ReadDocument> {
    await db.admitKept(document.json.length);
    return document;
  }

  /** Runs the document statement and keeps what it built. */
  private build(db: SqlSession, params: P, resource: string): Promise<ReadDocument | undefined> {
    const built = this.reads.document(db, params).then((found) => {
      if (found === undefined || typeof found.json !== 'string') return found;
      const bytes = this.cache.keep(resource, found.revision, found.json);
      return bytes === undefined ? found : { revision: found.revision, json: bytes };
    });
    this.building.set(resource, built);
    const done = () => {
      if (this.building.get(resource) === built) this.building.delete(resource);
    };
    built.then(done, done);
    return built;
  }
}

/**
 * `reads` keeping what they build in `cache`; as they are without a cache (a repository that a
 * unit spec makes itself, to look at the statements it sends).
 */
export function cachedReads<P extends object>(
  reads: TaggedReads<P>,
  cache: DocumentCache | undefined,
): TaggedReads<P> {
  return cache === undefined ? reads : new CachedReads(reads, cache);
}
