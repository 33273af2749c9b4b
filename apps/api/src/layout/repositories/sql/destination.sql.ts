import { type ChildLevel, parentOf } from './tree-levels';

/**
 * The parent a node went to, as a statement that moves or copies it reports it: its id and the
 * ids of its ancestors, for the node's new path (null above the parent); all null when there is
 * no such parent in the project.
 */
export interface Destination {
  parent_id: string | null;
  row_id: string | null;
  block_id: string | null;
}

/**
 * The parent that a node of `level` goes to in a move or a copy, within the project:
 * `$toParentId`, or the parent on the request's path when it is null (a block's is the
 * project). With its child count and the ids of its ancestors, for the node's new path. (The
 * node itself is found behind the lock, `lockedPath`: without it, nothing moves.)
 */
export function destination(level: ChildLevel): string {
  switch (parentOf(level)) {
    case 'project':
      return `SELECT p.id, p.child_count, NULL::uuid AS row_id, NULL::uuid AS block_id
        FROM projects p WHERE p.id = $projectId`;
    case 'block':
      return `SELECT b.id, b.child_count, NULL::uuid AS row_id, NULL::uuid AS block_id
        FROM blocks b WHERE b.id = COALESCE($toParentId::uuid, $blockId::uuid)
          AND b.project_id = $projectId`;
    case 'row':
      return `SELECT r.id, r.child_count, NULL::uuid AS row_id, r.block_id
        FROM rows r WHERE r.id = COALESCE($toParentId::uuid, $rowId::uuid)
          AND r.project_id = $projectId`;
    case 'column':
      return `SELECT c.id, c.child_count, c.row_id, r.block_id
        FROM columns c JOIN rows r ON r.id = c.row_id AND r.project_id = $projectId
        WHERE c.id = COALESCE($toParentId::uuid, $columnId::uuid)
          AND c.project_id = $projectId`;
  }
}
