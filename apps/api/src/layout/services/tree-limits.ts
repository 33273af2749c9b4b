import {
  CONTENT_DATA_MAX_BYTES,
  DUPLICATE_NODES_MAX,
  PROJECT_TREE_MAX_BYTES,
} from '@layout/contracts';
import { LimitExceededError } from '../../common/errors';
import { ContentTooLargeError } from '../errors';

// The contract's limits on what one account may store. The counts are checked after the write
// statement, which reports them as they are under the project's lock: a refused write rolls back.

/** `count` items of `what` in one container may not exceed `max`. */
export function assertWithinCount(count: number, max: number, container: string): void {
  if (count > max) throw new LimitExceededError(max, `${container} holds at most ${max}`);
}

/** A write may not take the project's answer past the limit (a write that shrinks it may). */
export function assertTreeWithin(before: number, after: number): void {
  if (after > PROJECT_TREE_MAX_BYTES && after > before) {
    throw new LimitExceededError(
      PROJECT_TREE_MAX_BYTES,
      `A project's whole tree is at most ${PROJECT_TREE_MAX_BYTES / 1024 / 1024} MiB as JSON`,
    );
  }
}

/** A content's data, as the JSON it is stored as, is at most 256 KiB. */
export function assertContentData(data: object, pointer: string): void {
  if (Buffer.byteLength(JSON.stringify(data)) > CONTENT_DATA_MAX_BYTES) {
    throw new ContentTooLargeError(CONTENT_DATA_MAX_BYTES, pointer);
  }
}

/** A copy makes at most 20 000 nodes, and may not take the project past its size limit. */
export function assertCopyWithin(copy: {
  nodes: number;
  treeBefore: number;
  treeAfter: number;
}): void {
  if (copy.nodes > DUPLICATE_NODES_MAX) {
    throw new LimitExceededError(
      DUPLICATE_NODES_MAX,
      `A duplicate creates at most ${DUPLICATE_NODES_MAX} nodes; this one would create ${copy.nodes}`,
    );
  }
  assertTreeWithin(copy.treeBefore, copy.treeAfter);
}

/**
 * The copy statement copies nothing when a limit it checks would break; the rules above say
 * which. One that copied nothing with no rule broken is a defect, not the client's problem.
 */
export function assertCopied(copy: { copied: boolean }): void {
  if (!copy.copied) throw new Error('A copy was refused by no rule the service knows');
}
