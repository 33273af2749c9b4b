import { Injectable } from '@nestjs/common';
import { type ContentResponse } from '@layout/contracts';
import { type SerializedJson } from '../../common/json/serialized-json';
import { PrismaService } from '../../database/prisma.service';
import { type ContentRecord, type ContentWrite } from '../layout.records';
import { type ColumnScope, type ContentScope } from '../layout.scopes';
import { DOCUMENT, readDocument } from './documents';
import { asJson } from './json';
import { toContent } from './record-mappers';
import { lockColumn } from './scope-locks';
import { columnMatch, contentMatch } from './scope-sql';
import { closeSlot, moveToSlot, openSlot } from './sibling-order';
import { contentSelect } from './tree-selects';

/** Computes a content's new state from its current one, inside the write transaction. */
export type ContentPlan = (current: ContentRecord) => Omit<ContentWrite, 'id'>;

@Injectable()
export class ContentsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** null when the column does not exist for this account. */
  listDocument(scope: ColumnScope): Promise<SerializedJson<ContentResponse[]> | null> {
    return readDocument(this.prisma, DOCUMENT.contentsOfColumn, columnMatch(scope));
  }

  findDocument(scope: ContentScope): Promise<SerializedJson<ContentResponse> | null> {
    return readDocument(this.prisma, DOCUMENT.content, contentMatch(scope));
  }

  async create(
    scope: ColumnScope,
    content: Omit<ContentWrite, 'id'>,
    position: number | undefined,
  ): Promise<ContentRecord | null> {
    return this.prisma.$transaction(async (tx) => {
      if (!(await lockColumn(tx, scope))) return null;
      const slot = await openSlot(tx, 'content', scope.columnId, position);
      const created = await tx.content.create({
        data: {
          ...content,
          style: asJson(content.style),
          data: asJson(content.data),
          projectId: scope.projectId,
          columnId: scope.columnId,
          position: slot,
        },
        select: contentSelect,
      });
      return toContent(created);
    });
  }

  async update(
    scope: ContentScope,
    plan: ContentPlan,
    position: number | undefined,
  ): Promise<ContentRecord | null> {
    return this.prisma.$transaction(async (tx) => {
      if (!(await lockColumn(tx, scope))) return null;
      const current = await tx.content.findFirst({
        where: { id: scope.contentId, columnId: scope.columnId },
        select: contentSelect,
      });
      if (!current) return null;
      if (position !== undefined) {
        await moveToSlot(tx, 'content', scope.columnId, scope.contentId, position);
      }
      const updated = await tx.content.update({
        where: { id: scope.contentId },
        data: toContentData(plan(toContent(current))),
        select: contentSelect,
      });
      return toContent(updated);
    });
  }

  async delete(scope: ContentScope): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      if (!(await lockColumn(tx, scope))) return false;
      const content = await tx.content.findFirst({
        where: { id: scope.contentId, columnId: scope.columnId },
        select: { position: true },
      });
      if (!content) return false;
      // deleteMany: a concurrent cascade may have removed it already, which is a 404, not a 500.
      const { count } = await tx.content.deleteMany({ where: { id: scope.contentId } });
      if (count === 0) return false;
      await closeSlot(tx, 'content', scope.columnId, content.position);
      return true;
    });
  }
}

const toContentData = (content: Omit<ContentWrite, 'id'>) => ({
  type: content.type,
  style: asJson(content.style),
  data: asJson(content.data),
});
