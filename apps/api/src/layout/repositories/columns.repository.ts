import { Injectable } from '@nestjs/common';
import { Prisma } from '../../generated/prisma/client';
import { type ColumnResponse } from '@layout/contracts';
import { type SerializedJson } from '../../common/json/serialized-json';
import { PrismaService } from '../../database/prisma.service';
import { type ColumnRecord, type ContentRecord, type ContentWrite } from '../layout.records';
import { type ColumnScope, type RowScope } from '../layout.scopes';
import { replaceColumnContents } from './column-contents';
import { DOCUMENT, type DocumentRows, firstDocument, readDocument } from './documents';
import { toColumn, toContent } from './record-mappers';
import { columnWhere } from './scope-filters';
import { lockColumn, lockRow } from './scope-locks';
import { columnMatch, rowMatch } from './scope-sql';
import { closeSlot, moveToSlot, openSlot } from './sibling-order';
import { type Tx } from './transaction';
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
      checkWidth((await rowWidth(tx, scope.rowId)).usedByOthers);
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
    return this.prisma.$transaction(async (tx) => {
      // Row first, then column: the same order as every other writer, so no deadlock.
      if (!(await lockRow(tx, scope))) return null;
      const width = await rowWidth(tx, scope.rowId, scope.columnId);
      if (!width.hasColumn) return null;
      if (changes.size !== undefined) checkWidth(width.usedByOthers);
      // A resize alone changes no list: the row lock is all it needs.
      if (changes.position !== undefined || changes.contents) {
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
      }
      if (changes.size === undefined) {
        return readDocument(
          tx,
          DOCUMENT.column,
          Prisma.sql`FROM columns c WHERE c.id = ${scope.columnId}::uuid`,
        );
      }
      return firstDocument(
        await tx.$queryRaw<DocumentRows>`
          UPDATE columns c SET size = ${changes.size} WHERE c.id = ${scope.columnId}::uuid
          RETURNING ${DOCUMENT.column}::text AS json`,
      );
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
  tx: Tx,
  rowId: string,
  columnId?: string,
): Promise<{ usedByOthers: number; hasColumn: boolean }> {
  const [width] = await tx.$queryRaw<[{ usedByOthers: number; hasColumn: boolean }]>`
    SELECT COALESCE(sum(size) FILTER (WHERE id IS DISTINCT FROM ${columnId}::uuid), 0)::int
             AS "usedByOthers",
           COALESCE(bool_or(id = ${columnId}::uuid), false) AS "hasColumn"
    FROM columns WHERE row_id = ${rowId}::uuid`;
  return width;
}

async function readColumn(tx: Tx, id: string): Promise<ColumnRecord> {
  return toColumn(await tx.column.findUniqueOrThrow({ where: { id }, select: columnSelect }));
}
