import {
  type BlockScope,
  type ColumnScope,
  type ProjectScope,
  type RowScope,
} from '../layout.scopes';
import { blockMatch, columnMatch, projectMatch, rowMatch } from './scope-sql';
import { type Tx } from './transaction';

// Each lock checks the whole path and the owner in one statement and locks the parent row whose
// children are about to change: writes to one list are serialised, reads never wait. Every
// statement is confined to one project_id, so the same holds on a Citus cluster sharded by it.

export async function lockProject(tx: Tx, scope: ProjectScope): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`SELECT 1 ${projectMatch(scope)} FOR UPDATE OF p`;
  return rows.length > 0;
}

export async function lockBlock(tx: Tx, scope: BlockScope): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`SELECT 1 ${blockMatch(scope)} FOR UPDATE OF b`;
  return rows.length > 0;
}

export async function lockRow(tx: Tx, scope: RowScope): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`SELECT 1 ${rowMatch(scope)} FOR UPDATE OF r`;
  return rows.length > 0;
}

export async function lockColumn(tx: Tx, scope: ColumnScope): Promise<boolean> {
  const rows = await tx.$queryRaw<unknown[]>`SELECT 1 ${columnMatch(scope)} FOR UPDATE OF c`;
  return rows.length > 0;
}
