import { Injectable } from '@nestjs/common';
import { type BlockResponse, type BlockStyle } from '@layout/contracts';
import { type SerializedJson } from '../../common/json/serialized-json';
import { PrismaService } from '../../database/prisma.service';
import { type BlockRecord } from '../layout.records';
import { type BlockScope, type ProjectScope } from '../layout.scopes';
import { DOCUMENT, readDocument } from './documents';
import { asJson } from './json';
import { toBlock } from './record-mappers';
import { blockWhere } from './scope-filters';
import { lockBlock, lockProject } from './scope-locks';
import { blockMatch, projectMatch } from './scope-sql';
import { closeSlot, moveToSlot, openSlot } from './sibling-order';
import { blockSelect } from './tree-selects';

export interface BlockWrite {
  description?: string;
  style?: BlockStyle;
}

@Injectable()
export class BlocksRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** null when the project does not exist for this account. */
  listDocument(scope: ProjectScope): Promise<SerializedJson<BlockResponse[]> | null> {
    return readDocument(this.prisma, DOCUMENT.blocksOfProject, projectMatch(scope));
  }

  findTreeDocument(scope: BlockScope): Promise<SerializedJson<BlockResponse> | null> {
    return readDocument(this.prisma, DOCUMENT.block, blockMatch(scope));
  }

  async create(
    scope: ProjectScope,
    block: Required<BlockWrite>,
    position: number | undefined,
  ): Promise<BlockRecord | null> {
    return this.prisma.$transaction(async (tx) => {
      if (!(await lockProject(tx, scope))) return null;
      const slot = await openSlot(tx, 'block', scope.projectId, position);
      const created = await tx.block.create({
        data: { ...block, style: asJson(block.style), projectId: scope.projectId, position: slot },
        select: blockSelect,
      });
      return toBlock(created);
    });
  }

  async update(
    scope: BlockScope,
    changes: BlockWrite,
    position: number | undefined,
  ): Promise<BlockRecord | null> {
    return this.prisma.$transaction(async (tx) => {
      if (position !== undefined && !(await lockProject(tx, scope))) return null;
      if (!(await lockBlock(tx, scope))) return null;
      if (position !== undefined) {
        await moveToSlot(tx, 'block', scope.projectId, scope.blockId, position);
      }
      const updated = await tx.block.update({
        where: { id: scope.blockId },
        data: { ...changes, style: changes.style && asJson(changes.style) },
        select: blockSelect,
      });
      return toBlock(updated);
    });
  }

  async delete(scope: BlockScope): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      if (!(await lockProject(tx, scope))) return false;
      const block = await tx.block.findFirst({
        where: blockWhere(scope),
        select: { position: true },
      });
      if (!block) return false;
      // deleteMany: a concurrent cascade may have removed it already, which is a 404, not a 500.
      const { count } = await tx.block.deleteMany({ where: { id: scope.blockId } });
      if (count === 0) return false;
      await closeSlot(tx, 'block', scope.projectId, block.position);
      return true;
    });
  }
}
