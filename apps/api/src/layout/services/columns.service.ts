import { Injectable } from '@nestjs/common';
import { isDeepStrictEqual } from 'node:util';
import {
  type ColumnContentDto,
  type ColumnResponse,
  CONTENTS_PER_COLUMN_MAX,
  type CreateColumnDto,
  type DuplicateColumnDto,
  type MoveColumnDto,
  type UpdateColumnDto,
} from '@layout/contracts';
import { RequestValidationError } from '../../common/errors';
import { type IdempotencyRequest } from '../../common/http/idempotency';
import { type RequestConditions } from '../../common/http/request-conditions';
import { Representation } from '../../common/http/representation';
import { Database } from '../../database/database';
import { type Pending, type Round, type Step } from '../../database/unit-of-work';
import { ContentComposer, type PreparedContent } from '../content/content-composer';
import { type ContentRecord, type ContentWrite } from '../layout.records';
import { changeOf } from '../layout.changes';
import { pathOf } from '../layout.paths';
import { type ColumnScope, type RowScope } from '../layout.scopes';
import { listTag, nodeTag } from '../layout.tags';
import {
  type ColumnForWrite,
  ColumnsRepository,
  type ColumnWidth,
} from '../repositories/columns.repository';
import { SiblingOrderRepository } from '../repositories/sibling-order.repository';
import { newNodeId, parentIdOf } from './body-ids';
import { answerNode } from './node-answers';
import { notFound } from './not-found';
import { assertPathId } from './path-id';
import { assertFitsInRow } from './row-width';
import { readTagged } from './tagged-read';
import { assertContentData, assertTreeWithin, assertWithinCount } from './tree-limits';
import { type LockedProject, type TreeWrite, TreeWriter } from './tree-writer';
import { copyNode, moveNode, type Relocation } from './relocations';
import { type CopiedNode, type MovedNode } from '../repositories/written-node';

@Injectable()
export class ColumnsService {
  constructor(
    private readonly db: Database,
    private readonly writer: TreeWriter,
    private readonly columns: ColumnsRepository,
    private readonly order: SiblingOrderRepository,
    private readonly composer: ContentComposer,
  ) {}

  list(scope: RowScope, conditions: RequestConditions): Promise<Representation<ColumnResponse[]>> {
    return readTagged(this.db, this.columns.reads.list, scope, conditions, listTag, 'Row');
  }

  retrieve(
    scope: ColumnScope,
    conditions: RequestConditions,
  ): Promise<Representation<ColumnResponse>> {
    return readTagged(this.db, this.columns.reads.column, scope, conditions, nodeTag, 'Column');
  }

  /**
   * A new column, with its contents when the body has some: the column, its contents and its
   * document go in one round (its id is made here, so that they can name it).
   */
  async create(
    scope: RowScope,
    body: CreateColumnDto,
    idempotency?: IdempotencyRequest,
  ): Promise<Representation<ColumnResponse>> {
    const contents = this.planContents(this.prepareContents(body.contents ?? []), []);
    const columnScope = { ...scope, columnId: newNodeId() };
    const where = { projectId: scope.projectId, parentId: scope.rowId, position: body.position };
    return this.writer.write(
      scope,
      changeOf('column', 'create', `${pathOf.row(scope)}/columns`),
      (write) =>
        this.order.placed(write, 'column', where, (sortKey, round) => {
          const created = this.columns.insert(round, columnScope, body.size, { sortKey });
          const filled =
            contents.length === 0
              ? undefined
              : {
                  treeBytes: this.columns.replaceContents(round, columnScope, contents),
                  document: this.columns.reads.column.documentIn(round, columnScope),
                };
          return round.finish(() => {
            const column = created.get() ?? notFound('Row');
            assertFitsInRow(column.others, body.size);
            const project = write.project.get();
            assertTreeWithin(project.treeBytes, filled?.treeBytes.get() ?? column.treeBytes);
            return answerNode<ColumnResponse>(
              filled?.document.get()?.json ?? column.json,
              project.revision,
              project.revision,
              pathOf.column(columnScope),
            );
          });
        }),
      idempotency,
    );
  }

  /**
   * Members left out keep their value; `contents`, when given, is the column's complete new
   * list (see planContents). A request that changes nothing takes no revision.
   */
  async update(
    scope: ColumnScope,
    body: UpdateColumnDto,
    conditions: RequestConditions,
  ): Promise<Representation<ColumnResponse>> {
    assertPathId(body._id, scope.columnId);
    const elements = body.contents && this.prepareContents(body.contents);
    return this.writer.write(scope, changeOf('column', 'update', pathOf.column(scope)), (write) =>
      elements === undefined
        ? this.resize(write, write.project, scope, body, conditions)
        : this.replace(write, scope, body, elements, conditions),
    );
  }

  async delete(scope: ColumnScope, conditions: RequestConditions): Promise<Representation<never>> {
    return this.writer.write(scope, changeOf('column', 'delete', pathOf.column(scope)), (write) => {
      const deleted = this.columns.delete(write, scope);
      return write.finish(() => {
        conditions.assertPreconditions(nodeTag(deleted.get() ?? notFound('Column')));
        return Representation.empty({ projectRevision: write.project.get().revision });
      });
    });
  }

  /**
   * Moves the column, with its contents, to the row `rowId` of the project (its own when left
   * out), at `position` (the end when left out), if that row has room for its size. It keeps
   * its id and its tag; its new path is the answer's `Location`.
   */
  async move(
    scope: ColumnScope,
    body: MoveColumnDto,
    conditions: RequestConditions,
    idempotency?: IdempotencyRequest,
  ): Promise<Representation<ColumnResponse>> {
    const placement = { toParentId: parentIdOf(body.rowId, 'Row'), position: body.position };
    return moveNode(this.writer, this.relocation, scope, placement, conditions, idempotency);
  }

  /**
   * Copies the column with its contents, new ids everywhere, into the row `rowId` (its own when
   * left out), at `position`; without one, right after the original in its own row, else at
   * the end. A copy that does not fit its row answers 409 with `availableSize`.
   */
  async duplicate(
    scope: ColumnScope,
    body: DuplicateColumnDto,
    conditions: RequestConditions,
    idempotency?: IdempotencyRequest,
  ): Promise<Representation<ColumnResponse>> {
    const placement = { toParentId: parentIdOf(body.rowId, 'Row'), position: body.position };
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

  /** A column moves and is copied between the rows of its project, where its size fits. */
  private readonly relocation: Relocation<
    ColumnScope,
    MovedNode & ColumnWidth,
    CopiedNode & ColumnWidth
  > = {
    level: 'column',
    names: { node: 'Column', parent: 'Row' },
    ids: (scope) => ({ node: scope.columnId, parent: scope.rowId }),
    move: (round, scope, placement) => this.columns.move(round, scope, placement),
    copy: (round, scope, request) => this.columns.copy(round, scope, request),
    assertFits: (column) => assertFitsInRow(column.others, column.size),
    here: (scope) => pathOf.column(scope),
    path: (scope, row, columnId) =>
      pathOf.column({
        projectId: scope.projectId,
        blockId: row.blockId ?? scope.blockId,
        rowId: row.id,
        columnId,
      }),
  };

  /** A size and/or a place: one statement, then the rules on what it reports. */
  private resize(
    round: Round,
    project: Pending<LockedProject>,
    scope: ColumnScope,
    body: Pick<UpdateColumnDto, 'size' | 'position'>,
    conditions: RequestConditions,
  ): Step<Representation<ColumnResponse>> {
    const where = {
      projectId: scope.projectId,
      parentId: scope.rowId,
      position: body.position,
      selfId: scope.columnId,
    };
    return this.order.placed(round, 'column', where, (sortKey, last) => {
      const resized = this.columns.resize(last, scope, body.size ?? null, { sortKey });
      return last.finish(() => {
        const column = resized.get() ?? notFound('Column');
        const locked = project.get();
        conditions.assertPreconditions(nodeTag(column.previousRevision));
        if (body.size !== undefined) assertFitsInRow(column.others, body.size);
        if (column.changed) assertTreeWithin(locked.treeBytes, column.treeBytes);
        return answerNode<ColumnResponse>(
          column.json,
          column.revision,
          column.changed ? locked.revision : locked.currentRevision,
        );
      });
    });
  }

  /**
   * New contents: the current ones, read under the lock, and the plan. When the plan leaves them
   * as they are, only the size or the place can change: that is a resize.
   */
  private replace(
    write: TreeWrite,
    scope: ColumnScope,
    body: UpdateColumnDto,
    elements: readonly PreparedElement[],
    conditions: RequestConditions,
  ): Step<Representation<ColumnResponse>> {
    const found = this.columns.findForWrite(write, scope);
    return write.next((round) => {
      const current = found.get() ?? notFound('Column');
      conditions.assertPreconditions(nodeTag(current.revision));
      const contents = this.planContents(elements, current.contents);
      if (sameContents(contents, current)) {
        return this.resize(round, write.project, scope, body, conditions);
      }
      assertFitsInRow(current.others, body.size ?? current.size);
      const where = {
        projectId: scope.projectId,
        parentId: scope.rowId,
        position: body.position,
        selfId: scope.columnId,
      };
      return this.order.placed(round, 'column', where, (sortKey, last) => {
        this.columns.replaceContents(last, scope, contents);
        const resized = this.columns.resize(last, scope, body.size ?? null, { sortKey });
        return last.finish(() => {
          const column = resized.get() ?? notFound('Column');
          const project = write.project.get();
          assertTreeWithin(project.treeBytes, column.treeBytes);
          return answerNode<ColumnResponse>(column.json, project.revision, project.revision);
        });
      });
    });
  }

  /** The elements' own work (sanitising, defaults, their size), done before the lock. */
  private prepareContents(elements: readonly ColumnContentDto[]): PreparedElement[] {
    assertWithinCount(elements.length, CONTENTS_PER_COLUMN_MAX, 'A column');
    return elements.map((element, index) => {
      const prepared = this.composer.prepare(element);
      if (prepared.data) assertContentData(prepared.data, `/contents/${index}/data`);
      return { id: element._id, prepared };
    });
  }

  /**
   * A column's `contents` is its complete new list: an element with the `_id` of one of its
   * contents updates that content (members left out keep their value), one without creates a
   * content, and contents not listed go. Any other `_id` is a client error.
   */
  private planContents(
    elements: readonly PreparedElement[],
    current: readonly ContentRecord[],
  ): ContentWrite[] {
    const byId = new Map(current.map((content) => [content.id, content]));
    const seen = new Set<string>();
    return elements.map(({ id, prepared }, index) => {
      const existing = id === undefined ? undefined : byId.get(id);
      if (id !== undefined && (!existing || seen.has(id))) {
        throw new RequestValidationError([
          {
            pointer: `/contents/${index}/_id`,
            detail: existing
              ? 'is listed twice'
              : 'is not the id of a content of this column (leave _id out to create a content)',
          },
        ]);
      }
      const composed = this.composer.merge(prepared, existing);
      if (!existing) return composed;
      seen.add(existing.id);
      return { id: existing.id, ...composed };
    });
  }
}

/** An element of a column's `contents`, prepared: its `_id`, if any, and its own members. */
interface PreparedElement {
  id: string | undefined;
  prepared: PreparedContent;
}

/** Whether a plan leaves the column's contents exactly as they are, in the same order. */
function sameContents(plan: readonly ContentWrite[], current: ColumnForWrite): boolean {
  return (
    plan.length === current.contents.length &&
    plan.every((content, index) => {
      const { id, type, style, data } = current.contents[index];
      return content.id === id && isDeepStrictEqual({ id, type, style, data }, content);
    })
  );
}
