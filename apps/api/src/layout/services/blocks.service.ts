import { Injectable } from '@nestjs/common';
import { type IdempotencyRequest } from '../../common/http/idempotency';
import { isDeepStrictEqual } from 'node:util';
import {
  type BlockResponse,
  type BlockStyleDto,
  BLOCKS_PER_PROJECT_MAX,
  type CreateBlockDto,
  DEFAULT_BLOCK_STYLE,
  type UpdateBlockDto,
} from '@layout/contracts';
import { type RequestConditions } from '../../common/http/request-conditions';
import { Representation } from '../../common/http/representation';
import { Database } from '../../database/database';
import { definedMembers } from '../content/defined-members';
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
    return this.writer.write(
      scope,
      async (write) => {
        const sortKey = await this.order.keyAt(write.tx, 'block', {
          projectId: scope.projectId,
          parentId: scope.projectId,
          position: body.position,
          selfId: null,
        });
        const created = await this.blocks.insert(write.tx, scope, block, {
          sortKey: sortKey ?? null,
        });
        assertWithinCount(created.siblings, BLOCKS_PER_PROJECT_MAX, 'A project');
        const project = await write.project;
        assertTreeWithin(project.treeBytes, created.treeBytes);
        return answerNode<BlockResponse>(
          created.json,
          project.revision,
          project.revision,
          pathOf.block({ ...scope, blockId: created.id }),
        );
      },
      idempotency,
    );
  }

  /** A given `style` replaces the stored one whole; its missing members take their defaults. */
  async update(
    scope: BlockScope,
    body: UpdateBlockDto,
    conditions: RequestConditions,
  ): Promise<Representation<BlockResponse>> {
    return this.writer.write(scope, async (write) => {
      const current = (await this.blocks.findForWrite(write.tx, scope)) ?? notFound('Block');
      conditions.assertPreconditions(nodeTag(current.revision));
      const next = {
        description: body.description ?? current.description,
        style: body.style === undefined ? current.style : withDefaults(body.style),
      };
      const changed = !isDeepStrictEqual(next, {
        description: current.description,
        style: current.style,
      });
      const sortKey = await this.order.keyAt(write.tx, 'block', {
        projectId: scope.projectId,
        parentId: scope.projectId,
        position: body.position,
        selfId: scope.blockId,
      });
      const project = await write.project;
      if (!changed && sortKey === undefined) {
        return answerUnchanged(
          write.tx,
          this.blocks.reads.block,
          scope,
          project.currentRevision,
          'Block',
        );
      }
      const updated = await this.blocks.update(write.tx, scope, next, {
        sortKey: sortKey ?? null,
        changed,
      });
      assertTreeWithin(project.treeBytes, updated.treeBytes);
      return answerNode<BlockResponse>(
        updated.json,
        changed ? project.revision : current.revision,
        project.revision,
      );
    });
  }

  async delete(scope: BlockScope, conditions: RequestConditions): Promise<Representation<never>> {
    return this.writer.write(scope, async (write) => {
      const deleted = (await this.blocks.delete(write.tx, scope)) ?? notFound('Block');
      conditions.assertPreconditions(nodeTag(deleted));
      const project = await write.project;
      return Representation.empty({ projectRevision: project.revision });
    });
  }
}

function withDefaults(style: BlockStyleDto | undefined) {
  return { ...DEFAULT_BLOCK_STYLE, ...(style && definedMembers(style)) };
}
