import { type InsertedRow, type UpdatedRow } from './sql/write-node.sql';
import { type Destination as DestinationRow } from './sql/destination.sql';
import { type CopiedRow } from './sql/copy-node.sql';
import { type PlacedRow } from './sql/place-node.sql';

// What the write statements of the tree report, as the services read it.

/** A row's width around a column that a write put in it (a column's writes only). */
export interface RowWidth {
  /** The column's size. */
  size?: number;
  /** Summed size of the other columns of the row it is (or would be) in. */
  others?: number;
}

/** What an insert reports. */
export interface InsertedNode extends RowWidth {
  /** The new node's document. */
  json: string;
  /** Children of its parent after the insert (the node included). */
  siblings: number;
  /** Bytes of the project's whole JSON answer after the write. */
  treeBytes: number;
}

export function insertedNode(row: InsertedRow & { others?: number }): InsertedNode {
  return {
    json: row.json,
    siblings: row.siblings,
    treeBytes: Number(row.tree_bytes),
    others: row.others,
  };
}

/** What an update of a node's members reports. */
export interface UpdatedNode extends RowWidth {
  /** The node's tag before the update, for `If-Match`. */
  previousRevision: number;
  /** Whether a member changed: false, and the node was not written. */
  changed: boolean;
  json: string;
  /** Bytes of the project's whole JSON answer after the write (undefined: unchanged). */
  treeBytes: number | undefined;
}

export function updatedNode(row: UpdatedRow & { others?: number }): UpdatedNode {
  return {
    previousRevision: row.previous_revision,
    changed: row.changed,
    json: row.json,
    treeBytes: row.tree_bytes === null ? undefined : Number(row.tree_bytes),
    others: row.others,
  };
}

/** The parent a node was placed or copied into, with the ids of its ancestors (for its path). */
export interface Destination {
  id: string;
  /** The row above a content's column; null above. */
  rowId: string | null;
  /** The block above a column's row or a content's column; null above. */
  blockId: string | null;
}

/** What a placement reports (see placeNodeStatement). */
export interface PlacedNode extends RowWidth {
  /** The node's tag before it was placed. */
  revision: number;
  /** The node's document, when it was found on its path. */
  json: string | undefined;
  /** Undefined when the parent asked for is not in the project. */
  destination: Destination | undefined;
  /** False when it was where the request puts it already: nothing changed. */
  moved: boolean;
  /** When it moved: its new parent's children, and the project's whole answer, after it. */
  siblings: number | undefined;
  treeBytes: number | undefined;
}

export function placedNode(row: PlacedRow & { size?: number; others?: number | null }): PlacedNode {
  return {
    revision: row.revision,
    json: row.json ?? undefined,
    destination: destinationOf(row),
    moved: row.moved,
    siblings: row.siblings ?? undefined,
    treeBytes: row.tree_bytes === null ? undefined : Number(row.tree_bytes),
    size: row.size,
    others: row.others ?? undefined,
  };
}

/** What a copy is told: the copy's id (made by the caller, so that it can read and place the copy in the same round) and the limits it may not pass. */
export interface CopyRequest {
  copyId: string;
  maxNodes: number;
  maxTreeBytes: number;
}

/** What a copy reports (see copyNodeStatement). */
export interface CopiedNode extends RowWidth {
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

export function copiedNode(row: CopiedRow & { size?: number; others?: number | null }): CopiedNode {
  return {
    revision: row.revision,
    destination: destinationOf(row),
    nodes: Number(row.nodes ?? 0),
    treeBefore: Number(row.tree_before ?? 0),
    treeAfter: Number(row.tree_after ?? 0),
    siblings: row.siblings ?? undefined,
    copied: row.copied,
    size: row.size,
    others: row.others ?? undefined,
  };
}

function destinationOf(row: DestinationRow): Destination | undefined {
  return row.parent_id === null
    ? undefined
    : { id: row.parent_id, rowId: row.row_id, blockId: row.block_id };
}
