import { Representation } from '../../common/http/representation';
import { SerializedJson } from '../../common/json/serialized-json';
import { type Round, type Step } from '../../database/unit-of-work';
import { nodeTag } from '../layout.tags';
import { type TaggedReads } from '../repositories/sql/tagged-reads';
import { notFound } from './not-found';

/**
 * What a write of the tree answers: the node's document with its tag, the project revision
 * (the one the write created, or the current one when it changed nothing) and, for a create,
 * where the node is.
 */
export function answerNode<T>(
  json: string,
  nodeRevision: number,
  projectRevision: number,
  location?: string,
): Representation<T> {
  return Representation.of(new SerializedJson<T>(json), {
    etag: nodeTag(nodeRevision),
    projectRevision,
    location,
  });
}

/** What a write that changed nothing answers: the node as it is, read under the write's lock. */
export function answerUnchanged<P extends object, T>(
  round: Round,
  reads: TaggedReads<P>,
  scope: P,
  projectRevision: number,
  resource: string,
): Step<Representation<T>> {
  const found = reads.documentIn(round, scope);
  return round.finish(() => {
    const document = found.get() ?? notFound(resource);
    return answerNode<T>(document.json, document.revision, projectRevision);
  });
}
