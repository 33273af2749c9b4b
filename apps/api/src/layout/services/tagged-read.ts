import { type RequestConditions } from '../../common/http/request-conditions';
import { Representation } from '../../common/http/representation';
import { SerializedJson } from '../../common/json/serialized-json';
import { type SqlSession } from '../../database/sql-session';
import { type TaggedReads } from '../repositories/sql/tagged-reads';
import { notFound } from './not-found';

/**
 * A read of the tree: 304 when `If-None-Match` names the current tag (found without building
 * the document), else the document with its tag.
 */
export async function readTagged<P extends object, T>(
  db: SqlSession,
  reads: TaggedReads<P>,
  params: P,
  conditions: RequestConditions,
  tagOf: (revision: number) => string,
  resource: string,
): Promise<Representation<T>> {
  if (conditions.asksIfNoneMatch) {
    const tag = tagOf((await reads.revision(db, params)) ?? notFound(resource));
    if (conditions.isNotModified(tag)) return Representation.notModified(tag);
  }
  const found = (await reads.document(db, params)) ?? notFound(resource);
  return Representation.of(new SerializedJson<T>(found.json), { etag: tagOf(found.revision) });
}
