import { type CopiedRow } from './sql/copy-node.sql';
import { type MovedRow } from './sql/move-node.sql';

/** What every write statement of the tree is told. */
export interface NodeWrite {
  /** Where the node goes among its siblings; null keeps it where it is (a create: at the end). */
  sortKey: string | null;
}

/** What a write statement reports, for the response and the service's limits. */
export interface WrittenNode {
  /** The written node's document. */
  json: string;
  /** Children of the node's parent after the write (the node included). */
  siblings: number;
  /** Bytes of the project's whole JSON answer after the write. */
  treeBytes: number;
}

export function writtenNode(row: {
  json: string;
  child_count: number;
  tree_bytes: string;
}): WrittenNode {
  return { json: row.json, siblings: row.child_count, treeBytes: Number(row.tree_bytes) };
}

/** The parent a node was moved or copied into, with the ids of its ancestors (for its path). */
export interface Destination {
  id: string;
  /** The row above a content's column; null above. */
  rowId: string | null;
  /** The block above a column's row or a content's column; null above. */
  blockId: string | null;
}

/** What a move reports (see moveNodeStatements). */
export interface MovedNode {
  /** The node's tag, which a move keeps. */
  revision: number;
  json: string;
  /** Undefined when the parent asked for is not in the project. */
  destination: Destination | undefined;
  /** False when it was where the request puts it already: nothing changed. */
  moved: boolean;
  /** When it moved: its new parent's children, and the project's whole answer, after it. */
  siblings: number | undefined;
  treeBytes: number | undefined;
}

export function movedNode(row: MovedRow): MovedNode {
  return {
    revision: row.revision,
    json: row.json,
    destination: destinationOf(row),
    moved: row.moved,
    siblings: row.siblings ?? undefined,
    treeBytes: row.tree_bytes === null ? undefined : Number(row.tree_bytes),
  };
}

/** What a copy is told: the copy's id (made by the caller, so that it can read the copy in the same round), its place, and the limits it may not pass. */
export interface CopyRequest {
  copyId: string;
  /** Its place among its new siblings; null: the end. */
  sortKey: string | null;
  maxNodes: number;
  maxTreeBytes: number;
}

/** What a copy reports (see copyNodeStatement). */
export interface CopiedNode {
  /** The original's tag, for `If-Match`. */
  revision: number;
  /** Undefined when the parent asked for is not in the project. */
  destination: Destination | undefined;
  /** Nodes the copy makes, and the project's whole answer before and with it. */
  nodes: number;
  treeBefore: number;
  treeAfter: number;
  /** The parent's children with the copy; undefined when nothing was copied. */
  siblings: number | undefined;
  /** False when a limit kept the statement from copying (the service refuses the request). */
  copied: boolean;
}

export function copiedNode(row: CopiedRow): CopiedNode {
  return {
    revision: row.revision,
    destination: destinationOf(row),
    nodes: Number(row.nodes ?? 0),
    treeBefore: Number(row.tree_before ?? 0),
    treeAfter: Number(row.tree_after ?? 0),
    siblings: row.siblings ?? undefined,
    copied: row.copied,
  };
}

function destinationOf(row: {
  parent_id: string | null;
  row_id: string | null;
  block_id: string | null;
}): Destination | undefined {
  return row.parent_id === null
    ? undefined
    : { id: row.parent_id, rowId: row.row_id, blockId: row.block_id };
}
