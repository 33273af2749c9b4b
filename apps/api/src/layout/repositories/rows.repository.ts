import { Injectable } from '@nestjs/common';
import { type RowResponse } from '@layout/contracts';
import { type SerializedJson } from '../../common/json/serialized-json';
import { PrismaService } from '../../database/prisma.service';
import { type RowRecord } from '../layout.records';
import { type BlockScope, type RowScope } from '../layout.scopes';
import { DOCUMENT, readDocument } from './documents';
import { toRow } from './record-mappers';
import { rowWhere } from './scope-filters';
import { lockBlock, lockRow } from './scope-locks';
import { blockMatch, rowMatch } from './scope-sql';
import { closeSlot, moveToSlot, openSlot } from './sibling-order';
import { rowSelect } from './tree-selects';

export interface RowWrite {
  description?: string;
}

@Injectable()
export class RowsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** null when the block does not exist for this account. */
  listDocument(scope: BlockScope): Promise<SerializedJson<RowResponse[]> | null> {
    return readDocument(this.prisma, DOCUMENT.rowsOfBlock, blockMatch(scope));
  }

  findTreeDocument(scope: RowScope): Promise<SerializedJson<RowResponse> | null> {
    return readDocument(this.prisma, DOCUMENT.row, rowMatch(scope));
  }

  async create(
    scope: BlockScope,
    row: Required<RowWrite>,
    position: number | undefined,
  ): Promise<RowRecord | null> {
    return this.prisma.$transaction(async (tx) => {
      if (!(await lockBlock(tx, scope))) return null;
      const slot = await openSlot(tx, 'row', scope.blockId, position);
      const created = await tx.row.create({
        data: { ...row, projectId: scope.projectId, blockId: scope.blockId, position: slot },
        select: rowSelect,
      });
      return toRow(created);
    });
  }

  async update(
    scope: RowScope,
    changes: RowWrite,
    position: number | undefined,
  ): Promise<RowRecord | null> {
    return this.prisma.$transaction(async (tx) => {
      if (position !== undefined && !(await lockBlock(tx, scope))) return null;
      if (!(await lockRow(tx, scope))) return null;
      if (position !== undefined) {
        await moveToSlot(tx, 'row', scope.blockId, scope.rowId, position);
      }
      const updated = await tx.row.update({
        where: { id: scope.rowId },
        data: changes,
        select: rowSelect,
      });
      return toRow(updated);
    });
  }

  async delete(scope: RowScope): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      if (!(await lockBlock(tx, scope))) return false;
      const row = await tx.row.findFirst({ where: rowWhere(scope), select: { position: true } });
      if (!row) return false;
      // deleteMany: a concurrent cascade may have removed it already, which is a 404, not a 500.
      const { count } = await tx.row.deleteMany({ where: { id: scope.rowId } });
      if (count === 0) return false;
      await closeSlot(tx, 'row', scope.blockId, row.position);
      return true;
    });
  }
}
