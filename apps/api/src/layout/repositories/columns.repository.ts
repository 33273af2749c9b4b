import { Injectable } from '@nestjs/common';
import { Prisma } from '../../generated/prisma/client';
import { type ColumnResponse } from '@layout/contracts';
import { type SerializedJson } from '../../common/json/serialized-json';
import { PrismaService } from '../../database/prisma.service';
import { type SqlRunner } from '../../database/sql-runner';
import { type ColumnRecord, type ContentRecord, type ContentWrite } from '../layout.records';
import { type ColumnScope, type RowScope } from '../layout.scopes';
import { replaceColumnContents } from './column-contents';
import { DOCUMENT, documentOf, readDocument } from './documents';
import { toColumn, toContent } from './record-mappers';
import { columnWhere } from './scope-filters';
import { lock, LOCK, lockColumn, lockRow } from './scope-locks';
import { columnMatch, rowMatch } from './scope-sql';
import { closeSlot, moveToSlot, openSlot } from './sibling-order';
import { sqlIn, type Tx } from './transaction';
import { byPosition, columnSelect, contentSelect } from './tree-selects';

/**
 * Called inside the write transaction with the summed size of the row's other columns, while
 * the row is locked: it throws to refuse the write, which then changes nothing.
 */
export type RowWidthCheck = (usedByOtherColumns: number) => void;

/** Computes a column's new contents from its current ones, inside the write transaction. */
export type ContentsPlan = (current: readonly ContentRecord[]) => ContentWrite[];

export interface ColumnUpdate {
  size?: number;
  position?: number;
  contents?: ContentsPlan;
}

@Injectable()
export class ColumnsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** null when the row does not exist for this account. */
  listDocument(scope: RowScope): Promise<SerializedJson<ColumnResponse[]> | null> {
    return readDocument(this.prisma, DOCUMENT.columnsOfRow, rowMatch(scope));
  }

  findTreeDocument(scope: ColumnScope): Promise<SerializedJson<ColumnResponse> | null> {
    return readDocument(this.prisma, DOCUMENT.column, columnMatch(scope));
  }

  async create(
    scope: RowScope,
    column: { size: number; contents: readonly ContentWrite[] },
    position: number | undefined,
    checkWidth: RowWidthCheck,
  ): Promise<ColumnRecord | null> {
    return this.prisma.$transaction(async (tx) => {
      if (!(await lockRow(tx, scope))) return null;
      checkWidth((await rowWidth(sqlIn(tx), scope.rowId)).usedByOthers);
      const slot = await openSlot(tx, 'column', scope.rowId, position);
      const { id } = await tx.column.create({
        data: { projectId: scope.projectId, rowId: scope.rowId, position: slot, size: column.size },
        select: { id: true },
      });
      if (column.contents.length > 0) {
        await replaceColumnContents(tx, { ...scope, columnId: id }, column.contents);
      }
      return readColumn(tx, id);
    });
  }

  async update(
    scope: ColumnScope,
    changes: ColumnUpdate,
    checkWidth: RowWidthCheck,
  ): Promise<SerializedJson<ColumnResponse> | null> {
    // A resize alone, the editor's most frequent write, changes no list: the row lock is all it
    // needs, and it runs as a plain SQL transaction.
    if (changes.position === undefined && !changes.contents) {
      return this.prisma.sqlTransaction(async (sql) => {
        if (!(await lockRowAndCheck(sql, scope, changes.size, checkWidth))) return null;
        return saveSize(sql, scope.columnId, changes.size);
      });
    }
    return this.prisma.$transaction(async (tx) => {
      const sql = sqlIn(tx);
      // Row first, then column: the same order as every other writer, so no deadlock.
      if (!(await lockRowAndCheck(sql, scope, changes.size, checkWidth))) return null;
      if (!(await lockColumn(tx, scope))) return null;
      if (changes.position !== undefined) {
        await moveToSlot(tx, 'column', scope.rowId, scope.columnId, changes.position);
      }
      if (changes.contents) {
        const current = await tx.content.findMany({
          where: { columnId: scope.columnId },
          select: contentSelect,
          orderBy: byPosition,
        });
        await replaceColumnContents(tx, scope, changes.contents(current.map(toContent)));
      }
      return saveSize(sql, scope.columnId, changes.size);
    });
  }

  async delete(scope: ColumnScope): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      if (!(await lockRow(tx, scope))) return false;
      const column = await tx.column.findFirst({
        where: columnWhere(scope),
        select: { position: true },
      });
      if (!column) return false;
      // deleteMany: a concurrent cascade may have removed it already, which is a 404, not a 500.
      const { count } = await tx.column.deleteMany({ where: { id: scope.columnId } });
      if (count === 0) return false;
      await closeSlot(tx, 'column', scope.rowId, column.position);
      return true;
    });
  }
}

/**
 * What the row's columns other than `columnId` use, and whether `columnId` is one of them. Run
 * after the row lock, as a statement of its own: only a snapshot taken once the lock is held
 * sees every committed change to the row's columns.
 */
async function rowWidth(
  sql: SqlRunner,
  rowId: string,
  columnId?: string,
): Promise<{ usedByOthers: number; hasColumn: boolean }> {
  const [width] = await sql.rows<{ usedByOthers: number; hasColumn: boolean }>(Prisma.sql`
    SELECT COALESCE(sum(size) FILTER (WHERE id IS DISTINCT FROM ${columnId}::uuid), 0)::int
             AS "usedByOthers",
           COALESCE(bool_or(id = ${columnId}::uuid), false) AS "hasColumn"
    FROM columns WHERE row_id = ${rowId}::uuid`);
  return width;
}

/**
 * Locks the column's row and, when the size changes, lets `checkWidth` refuse it. False when the
 * column is not at the end of its path for this account.
 */
async function lockRowAndCheck(
  sql: SqlRunner,
  scope: ColumnScope,
  size: number | undefined,
  checkWidth: RowWidthCheck,
): Promise<boolean> {
  if (!(await lock(sql, LOCK.row(scope)))) return false;
  const width = await rowWidth(sql, scope.rowId, scope.columnId);
  if (!width.hasColumn) return false;
  if (size !== undefined) checkWidth(width.usedByOthers);
  return true;
}

/** Stores the new size, if any, and answers with the column's document. */
function saveSize(
  sql: SqlRunner,
  columnId: string,
  size: number | undefined,
): Promise<SerializedJson<ColumnResponse> | null> {
  if (size === undefined) {
    return readDocument(
      sql,
      DOCUMENT.column,
      Prisma.sql`FROM columns c WHERE c.id = ${columnId}::uuid`,
    );
  }
  return documentOf(
    sql,
    Prisma.sql`UPDATE columns c SET size = ${size} WHERE c.id = ${columnId}::uuid
      RETURNING ${DOCUMENT.column}::text AS json`,
  );
}

async function readColumn(tx: Tx, id: string): Promise<ColumnRecord> {
  return toColumn(await tx.column.findUniqueOrThrow({ where: { id }, select: columnSelect }));
}
