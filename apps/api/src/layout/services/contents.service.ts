import { Injectable } from '@nestjs/common';
import { isDeepStrictEqual } from 'node:util';
import {
  CONTENTS_PER_COLUMN_MAX,
  type ContentResponse,
  type CreateContentDto,
  type DuplicateContentDto,
  type MoveContentDto,
  type UpdateContentDto,
} from '@layout/contracts';
import { type IdempotencyRequest } from '../../common/http/idempotency';
import { type RequestConditions } from '../../common/http/request-conditions';
import { Representation } from '../../common/http/representation';
import { Database } from '../../database/database';
import { ContentComposer } from '../content/content-composer';
import { changeOf } from '../layout.changes';
import { pathOf } from '../layout.paths';
import { type ColumnScope, type ContentScope } from '../layout.scopes';
import { listTag, nodeTag } from '../layout.tags';
import { ContentsRepository } from '../repositories/contents.repository';
import { SiblingOrderRepository } from '../repositories/sibling-order.repository';
import { parentIdOf } from './body-ids';
import { answerNode, answerUnchanged } from './node-answers';
import { notFound } from './not-found';
import { assertPathId } from './path-id';
import { readTagged } from './tagged-read';
import { assertContentData, assertTreeWithin, assertWithinCount } from './tree-limits';
import { TreeWriter } from './tree-writer';
import { copyNode, moveNode, type Relocation } from './relocations';
import { type CopiedNode, type MovedNode } from '../repositories/written-node';

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
    const where = { projectId: scope.projectId, parentId: scope.columnId, position: body.position };
    return this.writer.write(
      scope,
      changeOf('content', 'create', `${pathOf.column(scope)}/contents`),
      (write) =>
        this.order.placed(write, 'content', where, (sortKey, round) => {
          const created = this.contents.insert(round, scope, content, { sortKey });
          return round.finish(() => {
            const node = created.get() ?? notFound('Column');
            const project = write.project.get();
            assertWithinCount(node.siblings, CONTENTS_PER_COLUMN_MAX, 'A column');
            assertTreeWithin(project.treeBytes, node.treeBytes);
            return answerNode<ContentResponse>(
              node.json,
              project.revision,
              project.revision,
              pathOf.content({ ...scope, contentId: node.id }),
            );
          });
        }),
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
    return this.writer.write(
      scope,
      changeOf('content', 'update', pathOf.content(scope)),
      (write) => {
        const found = this.contents.findForWrite(write, scope);
        return write.next((round) => {
          const current = found.get() ?? notFound('Content');
          conditions.assertPreconditions(nodeTag(current.revision));
          const next = this.composer.merge(prepared, current);
          const changed = !isDeepStrictEqual(
            { type: current.type, style: current.style, data: current.data },
            next,
          );
          const where = {
            projectId: scope.projectId,
            parentId: scope.columnId,
            position: body.position,
            selfId: scope.contentId,
          };
          return this.order.placed(round, 'content', where, (sortKey, last) => {
            const project = write.project.get();
            if (!changed && sortKey === null) {
              return answerUnchanged<ContentScope, ContentResponse>(
                last,
                this.contents.reads.content,
                scope,
                project.currentRevision,
                'Content',
              );
            }
            const updated = this.contents.update(last, scope, next, { sortKey, changed });
            return last.finish(() => {
              const node = updated.get();
              assertTreeWithin(project.treeBytes, node.treeBytes);
              return answerNode<ContentResponse>(
                node.json,
                // A node that moves takes a new tag, as with a move (see moveNode).
                changed || sortKey !== null ? project.revision : current.revision,
                project.revision,
              );
            });
          });
        });
      },
    );
  }

  async delete(scope: ContentScope, conditions: RequestConditions): Promise<Representation<never>> {
    return this.writer.write(
      scope,
      changeOf('content', 'delete', pathOf.content(scope)),
      (write) => {
        const deleted = this.contents.delete(write, scope);
        return write.finish(() => {
          conditions.assertPreconditions(nodeTag(deleted.get() ?? notFound('Content')));
          return Representation.empty({ projectRevision: write.project.get().revision });
        });
      },
    );
  }

  /**
   * Moves the content to the column `columnId` of the project (its own when left out), at
   * `position` (the end when left out). It keeps its id and takes the move's revision as its
   * tag (see moveNode); its new path is the answer's `Location`, and the old one answers 404
   * from then on.
   */
  async move(
    scope: ContentScope,
    body: MoveContentDto,
    conditions: RequestConditions,
    idempotency?: IdempotencyRequest,
  ): Promise<Representation<ContentResponse>> {
    const placement = { toParentId: parentIdOf(body.columnId, 'Column'), position: body.position };
    return moveNode(this.writer, this.relocation, scope, placement, conditions, idempotency);
  }

  /**
   * Copies the content, with a new id, into the column `columnId` (its own when left out), at
   * `position`; without one, right after the original in its own column, else at the end.
   */
  async duplicate(
    scope: ContentScope,
    body: DuplicateContentDto,
    conditions: RequestConditions,
    idempotency?: IdempotencyRequest,
  ): Promise<Representation<ContentResponse>> {
    const placement = { toParentId: parentIdOf(body.columnId, 'Column'), position: body.position };
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

  /** A content moves and is copied between the columns of its project, 1 000 at most in each. */
  private readonly relocation: Relocation<ContentScope, MovedNode, CopiedNode> = {
    level: 'content',
    names: { node: 'Content', parent: 'Column' },
    ids: (scope) => ({ node: scope.contentId, parent: scope.columnId }),
    move: (round, scope, placement) => this.contents.move(round, scope, placement),
    copy: (round, scope, request) => this.contents.copy(round, scope, request),
    assertFits: (node) =>
      assertWithinCount(node.siblings ?? 0, CONTENTS_PER_COLUMN_MAX, 'A column'),
    here: (scope) => pathOf.content(scope),
    path: (scope, column, contentId) =>
      pathOf.content({
        projectId: scope.projectId,
        blockId: column.blockId ?? scope.blockId,
        rowId: column.rowId ?? scope.rowId,
        columnId: column.id,
        contentId,
      }),
  };
}
