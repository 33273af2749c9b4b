import { type SqlRunner } from '../../database/sql-runner';
import { Prisma } from '../../generated/prisma/client';
import {
  type BlockScope,
  type ColumnScope,
  type ProjectScope,
  type RowScope,
} from '../layout.scopes';
import { blockMatch, columnMatch, projectMatch, rowMatch } from './scope-sql';
import { sqlIn, type Tx } from './transaction';

// Each lock checks the whole path and the owner in one statement and locks the parent row whose
// children are about to change: writes to one list are serialised, reads never wait. Every
// statement is confined to one project_id, so the same holds on a Citus cluster sharded by it.

/** The lock statements: a row back when the path matches, and that row locked. */
export const LOCK = {
  project: (scope: ProjectScope) => Prisma.sql`SELECT 1 ${projectMatch(scope)} FOR UPDATE OF p`,
  block: (scope: BlockScope) => Prisma.sql`SELECT 1 ${blockMatch(scope)} FOR UPDATE OF b`,
  row: (scope: RowScope) => Prisma.sql`SELECT 1 ${rowMatch(scope)} FOR UPDATE OF r`,
  column: (scope: ColumnScope) => Prisma.sql`SELECT 1 ${columnMatch(scope)} FOR UPDATE OF c`,
} as const;

/** Takes a lock; false when its path does not match (not there, or not the caller's). */
export async function lock(sql: SqlRunner, statement: Prisma.Sql): Promise<boolean> {
  return (await sql.rows(statement)).length > 0;
}

// The same inside a Prisma interactive transaction.
export const lockProject = (tx: Tx, scope: ProjectScope) => lock(sqlIn(tx), LOCK.project(scope));
export const lockBlock = (tx: Tx, scope: BlockScope) => lock(sqlIn(tx), LOCK.block(scope));
export const lockRow = (tx: Tx, scope: RowScope) => lock(sqlIn(tx), LOCK.row(scope));
export const lockColumn = (tx: Tx, scope: ColumnScope) => lock(sqlIn(tx), LOCK.column(scope));
