import { Injectable } from '@nestjs/common';
import { Prisma } from '../../generated/prisma/client';
import { v7 as uuidv7 } from 'uuid';
import { type ContentResponse } from '@layout/contracts';
import { type SerializedJson } from '../../common/json/serialized-json';
import { PrismaService } from '../../database/prisma.service';
import { type ContentRecord, type ContentWrite } from '../layout.records';
import { type ColumnScope, type ContentScope } from '../layout.scopes';
import { DOCUMENT, readDocument } from './documents';
import { asJson } from './json';
import { type ContentRow, toContent } from './record-mappers';
import { lock, LOCK, lockColumn } from './scope-locks';
import { columnMatch, contentMatch } from './scope-sql';
import { closeSlot, moveToSlot } from './sibling-order';
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
    // The editor's most frequent write: a plain SQL transaction of three statements.
    return this.prisma.sqlTransaction(async (sql) => {
      if (!(await lock(sql, LOCK.column(scope)))) return null;
      if (position !== undefined) {
        await sql.rows(Prisma.sql`
          UPDATE contents SET position = position + 1
          WHERE column_id = ${scope.columnId}::uuid AND position >= ${position}`);
      }
      // Numbered by the INSERT itself: the requested index or, with none or one past the end,
      // the end (LEAST ignores a NULL). It runs after the lock, so the count sees every sibling.
      const [created] = await sql.rows<ContentRow>(Prisma.sql`
        INSERT INTO contents (id, project_id, column_id, position, type, style, data)
        VALUES (${uuidv7()}::uuid, ${scope.projectId}::uuid, ${scope.columnId}::uuid,
                (SELECT LEAST(${position ?? null}::int, count(*)::int)
                 FROM contents WHERE column_id = ${scope.columnId}::uuid),
                ${content.type}::content_type, ${JSON.stringify(content.style)}::jsonb,
                ${JSON.stringify(content.data)}::jsonb)
        RETURNING id, type, style, data`);
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
