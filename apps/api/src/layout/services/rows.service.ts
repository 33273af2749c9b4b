import { Injectable } from '@nestjs/common';
import {
  type CreateRowDto,
  type DuplicateRowDto,
  type MoveRowDto,
  type RowResponse,
  ROWS_PER_BLOCK_MAX,
  type UpdateRowDto,
} from '@layout/contracts';
import { type IdempotencyRequest } from '../../common/http/idempotency';
import { type RequestConditions } from '../../common/http/request-conditions';
import { Representation } from '../../common/http/representation';
import { Database } from '../../database/database';
import { changeOf } from '../layout.changes';
import { pathOf } from '../layout.paths';
import { type BlockScope, type RowScope } from '../layout.scopes';
import { listTag, nodeTag } from '../layout.tags';
import { RowsRepository } from '../repositories/rows.repository';
import { SiblingOrderRepository } from '../repositories/sibling-order.repository';
import { parentIdOf } from './body-ids';
import { answerNode, answerUnchanged } from './node-answers';
import { notFound } from './not-found';
import { readTagged } from './tagged-read';
import { assertTreeWithin, assertWithinCount } from './tree-limits';
import { TreeWriter } from './tree-writer';
import { copyNode, moveNode, type Relocation } from './relocations';
import { type CopiedNode, type MovedNode } from '../repositories/written-node';

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
    const where = { projectId: scope.projectId, parentId: scope.blockId, position: body.position };
    const row = { description: body.description ?? '' };
    return this.writer.write(
      scope,
      changeOf('row', 'create', `${pathOf.block(scope)}/rows`),
      (write) =>
        this.order.placed(write, 'row', where, (sortKey, round) => {
          const created = this.rows.insert(round, scope, row, { sortKey });
          return round.finish(() => {
            const node = created.get() ?? notFound('Block');
            assertWithinCount(node.siblings, ROWS_PER_BLOCK_MAX, 'A block');
            const project = write.project.get();
            assertTreeWithin(project.treeBytes, node.treeBytes);
            return answerNode<RowResponse>(
              node.json,
              project.revision,
              project.revision,
              pathOf.row({ ...scope, rowId: node.id }),
            );
          });
        }),
      idempotency,
    );
  }

  async update(
    scope: RowScope,
    body: UpdateRowDto,
    conditions: RequestConditions,
  ): Promise<Representation<RowResponse>> {
    return this.writer.write(scope, changeOf('row', 'update', pathOf.row(scope)), (write) => {
      const found = this.rows.findForWrite(write, scope);
      return write.next((round) => {
        const current = found.get() ?? notFound('Row');
        conditions.assertPreconditions(nodeTag(current.revision));
        const description = body.description ?? current.description;
        const changed = description !== current.description;
        const where = {
          projectId: scope.projectId,
          parentId: scope.blockId,
          position: body.position,
          selfId: scope.rowId,
        };
        return this.order.placed(round, 'row', where, (sortKey, last) => {
          const project = write.project.get();
          if (!changed && sortKey === null) {
            return answerUnchanged<RowScope, RowResponse>(
              last,
              this.rows.reads.row,
              scope,
              project.currentRevision,
              'Row',
            );
          }
          const updated = this.rows.update(last, scope, { description }, { sortKey, changed });
          return last.finish(() => {
            const node = updated.get();
            assertTreeWithin(project.treeBytes, node.treeBytes);
            return answerNode<RowResponse>(
              node.json,
              // A node that moves takes a new tag, as with a move (see moveNode).
              changed || sortKey !== null ? project.revision : current.revision,
              project.revision,
            );
          });
        });
      });
    });
  }

  async delete(scope: RowScope, conditions: RequestConditions): Promise<Representation<never>> {
    return this.writer.write(scope, changeOf('row', 'delete', pathOf.row(scope)), (write) => {
      const deleted = this.rows.delete(write, scope);
      return write.finish(() => {
        conditions.assertPreconditions(nodeTag(deleted.get() ?? notFound('Row')));
        return Representation.empty({ projectRevision: write.project.get().revision });
      });
    });
  }

  /**
   * Moves the row, with its columns and contents, to the block `blockId` of the project (its
   * own when left out), at `position` (the end when left out). It keeps its id and takes the
   * move's revision as its tag (see moveNode); its new path is the answer's `Location`.
   */
  async move(
    scope: RowScope,
    body: MoveRowDto,
    conditions: RequestConditions,
    idempotency?: IdempotencyRequest,
  ): Promise<Representation<RowResponse>> {
    const placement = { toParentId: parentIdOf(body.blockId, 'Block'), position: body.position };
    return moveNode(this.writer, this.relocation, scope, placement, conditions, idempotency);
  }

  /**
   * Copies the row with its columns and contents, new ids everywhere, into the block `blockId`
   * (its own when left out), at `position`; without one, right after the original in its own
   * block, else at the end.
   */
  async duplicate(
    scope: RowScope,
    body: DuplicateRowDto,
    conditions: RequestConditions,
    idempotency?: IdempotencyRequest,
  ): Promise<Representation<RowResponse>> {
    const placement = { toParentId: parentIdOf(body.blockId, 'Block'), position: body.position };
    return copyNode(
      this.writer,
      this.order,
      this.relocation,
      scope,
      placement,
      conditions,
      idempotency,
    );
  }

  /** A row moves and is copied between the blocks of its project, 500 at most in each. */
  private readonly relocation: Relocation<RowScope, MovedNode, CopiedNode> = {
    level: 'row',
    names: { node: 'Row', parent: 'Block' },
    ids: (scope) => ({ node: scope.rowId, parent: scope.blockId }),
    move: (round, scope, placement) => this.rows.move(round, scope, placement),
    copy: (round, scope, request) => this.rows.copy(round, scope, request),
    assertFits: (node) => assertWithinCount(node.siblings ?? 0, ROWS_PER_BLOCK_MAX, 'A block'),
    here: (scope) => pathOf.row(scope),
    path: (scope, block, rowId) =>
      pathOf.row({ projectId: scope.projectId, blockId: block.id, rowId }),
  };
}
