import {
  type BlockScope,
  type ColumnScope,
  type ProjectScope,
  type RowScope,
} from '../layout.scopes';
import { type Tx } from './transaction';

// Each lock checks the whole path and the owner in one statement and locks the parent row whose
// children are about to change: writes to one list are serialised, reads never wait. Every
// statement is confined to one project_id, so the same holds on a Citus cluster sharded by it.

export async function lockProject(tx: Tx, scope: ProjectScope): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`
    SELECT 1 FROM projects
    WHERE id = ${scope.projectId}::uuid AND owner_id = ${scope.accountId}::uuid
    FOR UPDATE`;
  return rows.length > 0;
}

export async function lockBlock(tx: Tx, scope: BlockScope): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`
    SELECT 1 FROM blocks b JOIN projects p ON p.id = b.project_id
    WHERE b.id = ${scope.blockId}::uuid AND b.project_id = ${scope.projectId}::uuid
      AND p.owner_id = ${scope.accountId}::uuid
    FOR UPDATE OF b`;
  return rows.length > 0;
}

export async function lockRow(tx: Tx, scope: RowScope): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`
    SELECT 1 FROM rows r JOIN projects p ON p.id = r.project_id
    WHERE r.id = ${scope.rowId}::uuid AND r.block_id = ${scope.blockId}::uuid
      AND r.project_id = ${scope.projectId}::uuid AND p.owner_id = ${scope.accountId}::uuid
    FOR UPDATE OF r`;
  return rows.length > 0;
}

export async function lockColumn(tx: Tx, scope: ColumnScope): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`
    SELECT 1 FROM columns c
      JOIN rows r ON r.id = c.row_id
      JOIN projects p ON p.id = c.project_id
    WHERE c.id = ${scope.columnId}::uuid AND c.row_id = ${scope.rowId}::uuid
      AND r.block_id = ${scope.blockId}::uuid AND c.project_id = ${scope.projectId}::uuid
      AND p.owner_id = ${scope.accountId}::uuid
    FOR UPDATE OF c`;
  return rows.length > 0;
}
