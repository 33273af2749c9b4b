import { randomFillSync } from 'node:crypto';
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

/** Ids whose random bytes one system call draws: a create's id no longer costs one each. */
const IDS_PER_DRAW = 256;
const ID_BYTES = 16;
let randomPool = new Uint8Array(0);
let taken = 0;

function randomBytesOfOneId(): Uint8Array {
  if (taken + ID_BYTES > randomPool.length) {
    randomPool = randomFillSync(new Uint8Array(ID_BYTES * IDS_PER_DRAW));
    taken = 0;
  }
  taken += ID_BYTES;
  return randomPool.subarray(taken - ID_BYTES, taken);
}

/**
 * The id of a node a write creates and reads back in the same round: a UUIDv7, like the ids
 * the database makes (time-ordered, so the index stays local; random within a millisecond).
 */
export function newNodeId(): string {
  return v7({ random: randomBytesOfOneId() });
}
