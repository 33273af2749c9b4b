import { Injectable } from '@nestjs/common';
import { type IdempotencyRequest } from '../../common/http/idempotency';
import {
  type CreateRowDto,
  type RowResponse,
  ROWS_PER_BLOCK_MAX,
  type UpdateRowDto,
} from '@layout/contracts';
import { type RequestConditions } from '../../common/http/request-conditions';
import { Representation } from '../../common/http/representation';
import { Database } from '../../database/database';
import { pathOf } from '../layout.paths';
import { type BlockScope, type RowScope } from '../layout.scopes';
import { listTag, nodeTag } from '../layout.tags';
import { RowsRepository } from '../repositories/rows.repository';
import { SiblingOrderRepository } from '../repositories/sibling-order.repository';
import { answerNode, answerUnchanged } from './node-answers';
import { notFound } from './not-found';
import { readTagged } from './tagged-read';
import { assertTreeWithin, assertWithinCount } from './tree-limits';
import { TreeWriter } from './tree-writer';

@Injectable()
export class RowsService {
  constructor(
    private readonly db: Database,
    private readonly writer: TreeWriter,
    private readonly rows: RowsRepository,
    private readonly order: SiblingOrderRepository,
  ) {}

  list(scope: BlockScope, conditions: RequestConditions): Promise<Representation<RowResponse[]>> {
    return readTagged(this.db, this.rows.reads.list, scope, conditions, listTag, 'Block');
  }

  retrieve(scope: RowScope, conditions: RequestConditions): Promise<Representation<RowResponse>> {
    return readTagged(this.db, this.rows.reads.row, scope, conditions, nodeTag, 'Row');
  }

  async create(
    scope: BlockScope,
    body: CreateRowDto,
    idempotency?: IdempotencyRequest,
  ): Promise<Representation<RowResponse>> {
    return this.writer.write(
      scope,
      async (write) => {
        const sortKey = await this.order.keyAt(write.tx, 'row', {
          projectId: scope.projectId,
          parentId: scope.blockId,
          position: body.position,
          selfId: null,
        });
        const created =
          (await this.rows.insert(
            write.tx,
            scope,
            { description: body.description ?? '' },
            { sortKey: sortKey ?? null },
          )) ?? notFound('Block');
        assertWithinCount(created.siblings, ROWS_PER_BLOCK_MAX, 'A block');
        const project = await write.project;
        assertTreeWithin(project.treeBytes, created.treeBytes);
        return answerNode<RowResponse>(
          created.json,
          project.revision,
          project.revision,
          pathOf.row({ ...scope, rowId: created.id }),
        );
      },
      idempotency,
    );
  }

  async update(
    scope: RowScope,
    body: UpdateRowDto,
    conditions: RequestConditions,
  ): Promise<Representation<RowResponse>> {
    return this.writer.write(scope, async (write) => {
      const current = (await this.rows.findForWrite(write.tx, scope)) ?? notFound('Row');
      conditions.assertPreconditions(nodeTag(current.revision));
      const description = body.description ?? current.description;
      const changed = description !== current.description;
      const sortKey = await this.order.keyAt(write.tx, 'row', {
        projectId: scope.projectId,
        parentId: scope.blockId,
        position: body.position,
        selfId: scope.rowId,
      });
      const project = await write.project;
      if (!changed && sortKey === undefined) {
        return answerUnchanged(
          write.tx,
          this.rows.reads.row,
          scope,
          project.currentRevision,
          'Row',
        );
      }
      const updated = await this.rows.update(
        write.tx,
        scope,
        { description },
        { sortKey: sortKey ?? null, changed },
      );
      assertTreeWithin(project.treeBytes, updated.treeBytes);
      return answerNode<RowResponse>(
        updated.json,
        changed ? project.revision : current.revision,
        project.revision,
      );
    });
  }

  async delete(scope: RowScope, conditions: RequestConditions): Promise<Representation<never>> {
    return this.writer.write(scope, async (write) => {
      const deleted = (await this.rows.delete(write.tx, scope)) ?? notFound('Row');
      conditions.assertPreconditions(nodeTag(deleted));
      const project = await write.project;
      return Representation.empty({ projectRevision: project.revision });
    });
  }
}
