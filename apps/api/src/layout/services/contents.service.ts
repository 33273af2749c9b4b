import { Injectable } from '@nestjs/common';
import { type IdempotencyRequest } from '../../common/http/idempotency';
import { isDeepStrictEqual } from 'node:util';
import {
  CONTENTS_PER_COLUMN_MAX,
  type ContentResponse,
  type CreateContentDto,
  type UpdateContentDto,
} from '@layout/contracts';
import { type RequestConditions } from '../../common/http/request-conditions';
import { Representation } from '../../common/http/representation';
import { Database } from '../../database/database';
import { ContentComposer } from '../content/content-composer';
import { pathOf } from '../layout.paths';
import { type ColumnScope, type ContentScope } from '../layout.scopes';
import { listTag, nodeTag } from '../layout.tags';
import { ContentsRepository } from '../repositories/contents.repository';
import { SiblingOrderRepository } from '../repositories/sibling-order.repository';
import { answerNode, answerUnchanged } from './node-answers';
import { notFound } from './not-found';
import { assertPathId } from './path-id';
import { readTagged } from './tagged-read';
import { assertContentData, assertTreeWithin, assertWithinCount } from './tree-limits';
import { TreeWriter } from './tree-writer';

@Injectable()
export class ContentsService {
  constructor(
    private readonly db: Database,
    private readonly writer: TreeWriter,
    private readonly contents: ContentsRepository,
    private readonly order: SiblingOrderRepository,
    private readonly composer: ContentComposer,
  ) {}

  list(
    scope: ColumnScope,
    conditions: RequestConditions,
  ): Promise<Representation<ContentResponse[]>> {
    return readTagged(this.db, this.contents.reads.list, scope, conditions, listTag, 'Column');
  }

  retrieve(
    scope: ContentScope,
    conditions: RequestConditions,
  ): Promise<Representation<ContentResponse>> {
    return readTagged(this.db, this.contents.reads.content, scope, conditions, nodeTag, 'Content');
  }

  async create(
    scope: ColumnScope,
    body: CreateContentDto,
    idempotency?: IdempotencyRequest,
  ): Promise<Representation<ContentResponse>> {
    const content = this.composer.compose(body);
    assertContentData(content.data, '/data');
    return this.writer.write(
      scope,
      async (write) => {
        const sortKey = await this.order.keyAt(write.tx, 'content', {
          projectId: scope.projectId,
          parentId: scope.columnId,
          position: body.position,
          selfId: null,
        });
        const created =
          (await this.contents.insert(write.tx, scope, content, { sortKey: sortKey ?? null })) ??
          notFound('Column');
        const project = await write.project;
        assertWithinCount(created.siblings, CONTENTS_PER_COLUMN_MAX, 'A column');
        assertTreeWithin(project.treeBytes, created.treeBytes);
        return answerNode<ContentResponse>(
          created.json,
          project.revision,
          project.revision,
          pathOf.content({ ...scope, contentId: created.id }),
        );
      },
      idempotency,
    );
  }

  /**
   * Members left out keep their value (see ContentComposer). A request that changes nothing
   * takes no revision and answers the content as it is.
   */
  async update(
    scope: ContentScope,
    body: UpdateContentDto,
    conditions: RequestConditions,
  ): Promise<Representation<ContentResponse>> {
    assertPathId(body._id, scope.contentId);
    const prepared = this.composer.prepare(body);
    if (prepared.data) assertContentData(prepared.data, '/data');
    return this.writer.write(scope, async (write) => {
      const current = (await this.contents.findForWrite(write.tx, scope)) ?? notFound('Content');
      conditions.assertPreconditions(nodeTag(current.revision));
      const next = this.composer.merge(prepared, current);
      const changed = !isDeepStrictEqual(
        { type: current.type, style: current.style, data: current.data },
        next,
      );
      const sortKey = await this.order.keyAt(write.tx, 'content', {
        projectId: scope.projectId,
        parentId: scope.columnId,
        position: body.position,
        selfId: scope.contentId,
      });
      const project = await write.project;
      if (!changed && sortKey === undefined) {
        return answerUnchanged(
          write.tx,
          this.contents.reads.content,
          scope,
          project.currentRevision,
          'Content',
        );
      }
      const updated = await this.contents.update(write.tx, scope, next, {
        sortKey: sortKey ?? null,
        changed,
      });
      assertTreeWithin(project.treeBytes, updated.treeBytes);
      return answerNode<ContentResponse>(
        updated.json,
        changed ? project.revision : current.revision,
        project.revision,
      );
    });
  }

  async delete(scope: ContentScope, conditions: RequestConditions): Promise<Representation<never>> {
    return this.writer.write(scope, async (write) => {
      const deleted = (await this.contents.delete(write.tx, scope)) ?? notFound('Content');
      conditions.assertPreconditions(nodeTag(deleted));
      return Representation.empty({ projectRevision: (await write.project).revision });
    });
  }
}
