import { type RequestConditions } from '../../common/http/request-conditions';
import { Representation } from '../../common/http/representation';
import { SerializedJson } from '../../common/json/serialized-json';
import { type SqlSession } from '../../database/sql-session';
import { type ReadDocument, type TaggedReads } from '../repositories/sql/tagged-reads';
import { notFound } from './not-found';

/**
 * A read of the tree: 304 when `If-None-Match` names the current tag (found without building
 * the document), else the document with its tag. Past that check, the revision it found serves
 * the document this instance may have kept of it, without asking for the revision again.
 */
export async function readTagged<P extends object, T>(
  db: SqlSession,
  reads: TaggedReads<P>,
  params: P,
  conditions: RequestConditions,
  tagOf: (revision: number) => string,
  resource: string,
): Promise<Representation<T>> {
  let found: ReadDocument | undefined;
  if (conditions.asksIfNoneMatch) {
    const revision = (await reads.revision(db, params)) ?? notFound(resource);
    const tag = tagOf(revision);
    if (conditions.isNotModified(tag)) return Representation.notModified(tag);
    found = await reads.documentAt(db, params, revision);
  } else {
    found = await reads.document(db, params);
  }
  found ??= notFound(resource);
  return Representation.of(new SerializedJson<T>(found.json), { etag: tagOf(found.revision) });
}
