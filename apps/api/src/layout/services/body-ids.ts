import { v7 } from 'uuid';
import { RESOURCE_ID } from '../../common/pipes/resource-id';
import { notFound } from './not-found';

/**
 * A parent named in a body (a move's or a copy's `blockId`, `rowId`, `columnId`): null when it
 * is left out. An id of the wrong shape names nothing: 404, as it would in a path.
 */
export function parentIdOf(id: string | undefined, resource: string): string | null {
  if (id === undefined) return null;
  return RESOURCE_ID.test(id) ? id : notFound(resource);
}

/**
 * The id of a node a write creates and reads back in the same round: a UUIDv7, like the ids
 * the database makes (time-ordered, so the index stays local).
 */
export function newNodeId(): string {
  return v7();
}
