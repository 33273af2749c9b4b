import { Injectable } from '@nestjs/common';
import { isDeepStrictEqual } from 'node:util';
import {
  type BlockResponse,
  type BlockStyleDto,
  BLOCKS_PER_PROJECT_MAX,
  type CreateBlockDto,
  DEFAULT_BLOCK_STYLE,
  type DuplicateBlockDto,
  type MoveBlockDto,
  type UpdateBlockDto,
} from '@layout/contracts';
import { type IdempotencyRequest } from '../../common/http/idempotency';
import { type RequestConditions } from '../../common/http/request-conditions';
import { Representation } from '../../common/http/representation';
import { Database } from '../../database/database';
import { definedMembers } from '../content/defined-members';
import { changeOf } from '../layout.changes';
import { pathOf } from '../layout.paths';
import { type BlockScope, type ProjectScope } from '../layout.scopes';
import { listTag, nodeTag } from '../layout.tags';
import { BlocksRepository } from '../repositories/blocks.repository';
import { SiblingOrderRepository } from '../repositories/sibling-order.repository';
import { answerNode, answerUnchanged } from './node-answers';
import { notFound } from './not-found';
import { readTagged } from './tagged-read';
import { assertTreeWithin, assertWithinCount } from './tree-limits';
import { TreeWriter } from './tree-writer';
import { copyNode, moveNode, type Relocation } from './relocations';
import { type CopiedNode, type MovedNode } from '../repositories/written-node';

@Injectable()
export class BlocksService {
  constructor(
    private readonly db: Database,
    private readonly writer: TreeWriter,
    private readonly blocks: BlocksRepository,
    private readonly order: SiblingOrderRepository,
  ) {}

  list(
    scope: ProjectScope,
    conditions: RequestConditions,
  ): Promise<Representation<BlockResponse[]>> {
    return readTagged(this.db, this.blocks.reads.list, scope, conditions, listTag, 'Project');
  }

  retrieve(
    scope: BlockScope,
    conditions: RequestConditions,
  ): Promise<Representation<BlockResponse>> {
    return readTagged(this.db, this.blocks.reads.block, scope, conditions, nodeTag, 'Block');
  }

  async create(
    scope: ProjectScope,
    body: CreateBlockDto,
    idempotency?: IdempotencyRequest,
  ): Promise<Representation<BlockResponse>> {
    const block = { description: body.description, style: withDefaults(body.style) };
    const where = {
      projectId: scope.projectId,
      parentId: scope.projectId,
      position: body.position,
    };
    return this.writer.write(
      scope,
      changeOf('block', 'create', `${pathOf.project(scope)}/blocks`),
      (write) =>
        this.order.placed(write, 'block', where, (sortKey, round) => {
          const created = this.blocks.insert(round, scope, block, { sortKey });
          return round.finish(() => {
            const node = created.get();
            assertWithinCount(node.siblings, BLOCKS_PER_PROJECT_MAX, 'A project');
            const project = write.project.get();
            assertTreeWithin(project.treeBytes, node.treeBytes);
            return answerNode<BlockResponse>(
              node.json,
              project.revision,
              project.revision,
              pathOf.block({ ...scope, blockId: node.id }),
            );
          });
        }),
      idempotency,
    );
  }

  /** A given `style` replaces the stored one whole; its missing members take their defaults. */
  async update(
    scope: BlockScope,
    body: UpdateBlockDto,
    conditions: RequestConditions,
  ): Promise<Representation<BlockResponse>> {
    return this.writer.write(scope, changeOf('block', 'update', pathOf.block(scope)), (write) => {
      const found = this.blocks.findForWrite(write, scope);
      return write.next((round) => {
        const current = found.get() ?? notFound('Block');
        conditions.assertPreconditions(nodeTag(current.revision));
        const next = {
          description: body.description ?? current.description,
          style: body.style === undefined ? current.style : withDefaults(body.style),
        };
        const changed = !isDeepStrictEqual(next, {
          description: current.description,
          style: current.style,
        });
        const where = {
          projectId: scope.projectId,
          parentId: scope.projectId,
          position: body.position,
          selfId: scope.blockId,
        };
        return this.order.placed(round, 'block', where, (sortKey, last) => {
          const project = write.project.get();
          if (!changed && sortKey === null) {
            return answerUnchanged<BlockScope, BlockResponse>(
              last,
              this.blocks.reads.block,
              scope,
              project.currentRevision,
              'Block',
            );
          }
          const updated = this.blocks.update(last, scope, next, { sortKey, changed });
          return last.finish(() => {
            const node = updated.get();
            assertTreeWithin(project.treeBytes, node.treeBytes);
            return answerNode<BlockResponse>(
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

  async delete(scope: BlockScope, conditions: RequestConditions): Promise<Representation<never>> {
    return this.writer.write(scope, changeOf('block', 'delete', pathOf.block(scope)), (write) => {
      const deleted = this.blocks.delete(write, scope);
      return write.finish(() => {
        conditions.assertPreconditions(nodeTag(deleted.get() ?? notFound('Block')));
        return Representation.empty({ projectRevision: write.project.get().revision });
      });
    });
  }

  /** Moves the block, with everything in it, to `position` among the project's blocks. */
  async move(
    scope: BlockScope,
    body: MoveBlockDto,
    conditions: RequestConditions,
    idempotency?: IdempotencyRequest,
  ): Promise<Representation<BlockResponse>> {
    const placement = { toParentId: null, position: body.position };
    return moveNode(this.writer, this.relocation, scope, placement, conditions, idempotency);
  }

  /**
   * Copies the block with everything in it, new ids everywhere, at `position` among the
   * project's blocks; without one, right after the original.
   */
  async duplicate(
    scope: BlockScope,
    body: DuplicateBlockDto,
    conditions: RequestConditions,
    idempotency?: IdempotencyRequest,
  ): Promise<Representation<BlockResponse>> {
    const placement = { toParentId: null, position: body.position };
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

  /** A block moves and is copied within its project, which holds 500 at most. */
  private readonly relocation: Relocation<BlockScope, MovedNode, CopiedNode> = {
    level: 'block',
    names: { node: 'Block', parent: 'Project' },
    ids: (scope) => ({ node: scope.blockId, parent: scope.projectId }),
    // A block's parent is its project: there is no other to go to.
    move: (round, scope, { position }) => this.blocks.move(round, scope, { position }),
    copy: (round, scope, { toParentId: _project, ...request }) =>
      this.blocks.copy(round, scope, request),
    assertFits: (node) =>
      assertWithinCount(node.siblings ?? 0, BLOCKS_PER_PROJECT_MAX, 'A project'),
    here: (scope) => pathOf.block(scope),
    path: (scope, _project, blockId) => pathOf.block({ projectId: scope.projectId, blockId }),
  };
}

function withDefaults(style: BlockStyleDto | undefined) {
  return { ...DEFAULT_BLOCK_STYLE, ...(style && definedMembers(style)) };
}
