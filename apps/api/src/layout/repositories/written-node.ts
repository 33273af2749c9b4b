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
