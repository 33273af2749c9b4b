import { Injectable } from '@nestjs/common';
import { type IdempotencyRequest } from '../../common/http/idempotency';
import { isDeepStrictEqual } from 'node:util';
import {
  type ColumnContentDto,
  type ColumnResponse,
  CONTENTS_PER_COLUMN_MAX,
  type CreateColumnDto,
  type UpdateColumnDto,
} from '@layout/contracts';
import { RequestValidationError } from '../../common/errors';
import { type RequestConditions } from '../../common/http/request-conditions';
import { Representation } from '../../common/http/representation';
import { Database } from '../../database/database';
import { ContentComposer, type PreparedContent } from '../content/content-composer';
import { type ContentRecord, type ContentWrite } from '../layout.records';
import { pathOf } from '../layout.paths';
import { type ColumnScope, type RowScope } from '../layout.scopes';
import { listTag, nodeTag } from '../layout.tags';
import { type ColumnForWrite, ColumnsRepository } from '../repositories/columns.repository';
import { SiblingOrderRepository } from '../repositories/sibling-order.repository';
import { answerNode } from './node-answers';
import { notFound } from './not-found';
import { assertPathId } from './path-id';
import { assertFitsInRow } from './row-width';
import { readTagged } from './tagged-read';
import { assertContentData, assertTreeWithin, assertWithinCount } from './tree-limits';
import { type TreeWrite, TreeWriter } from './tree-writer';

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

  async create(
    scope: RowScope,
    body: CreateColumnDto,
    idempotency?: IdempotencyRequest,
  ): Promise<Representation<ColumnResponse>> {
    const contents = this.planContents(this.prepareContents(body.contents ?? []), []);
    return this.writer.write(
      scope,
      async (write) => {
        const sortKey = await this.order.keyAt(write.tx, 'column', {
          projectId: scope.projectId,
          parentId: scope.rowId,
          position: body.position,
          selfId: null,
        });
        const created =
          (await this.columns.insert(write.tx, scope, body.size, {
            sortKey: sortKey ?? null,
          })) ?? notFound('Row');
        assertFitsInRow(created.others, body.size);
        const columnScope = { ...scope, columnId: created.id };
        const written =
          contents.length === 0
            ? created
            : await this.columns.replaceContents(write.tx, columnScope, contents, {
                sortKey: null,
                size: null,
              });
        const project = await write.project;
        assertTreeWithin(project.treeBytes, written.treeBytes);
        return answerNode<ColumnResponse>(
          written.json,
          project.revision,
          project.revision,
          pathOf.column(columnScope),
        );
      },
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
    return this.writer.write(scope, (write) =>
      elements === undefined
        ? this.resize(write, scope, body, conditions)
        : this.replace(write, scope, body, elements, conditions),
    );
  }

  async delete(scope: ColumnScope, conditions: RequestConditions): Promise<Representation<never>> {
    return this.writer.write(scope, async (write) => {
      const deleted = (await this.columns.delete(write.tx, scope)) ?? notFound('Column');
      conditions.assertPreconditions(nodeTag(deleted));
      const project = await write.project;
      return Representation.empty({ projectRevision: project.revision });
    });
  }

  /** A size and/or a place: one statement, then the rules on what it reports. */
  private async resize(
    write: TreeWrite,
    scope: ColumnScope,
    body: Pick<UpdateColumnDto, 'size' | 'position'>,
    conditions: RequestConditions,
  ): Promise<Representation<ColumnResponse>> {
    const sortKey = await this.order.keyAt(write.tx, 'column', {
      projectId: scope.projectId,
      parentId: scope.rowId,
      position: body.position,
      selfId: scope.columnId,
    });
    const resized =
      (await this.columns.resize(write.tx, scope, body.size ?? null, {
        sortKey: sortKey ?? null,
      })) ?? notFound('Column');
    const project = await write.project;
    conditions.assertPreconditions(nodeTag(resized.previousRevision));
    if (body.size !== undefined) assertFitsInRow(resized.others, body.size);
    if (resized.treeBytes !== undefined) assertTreeWithin(project.treeBytes, resized.treeBytes);
    return answerNode<ColumnResponse>(
      resized.json,
      resized.revision,
      resized.changed ? project.revision : project.currentRevision,
    );
  }

  /**
   * New contents: the current ones, read under the lock, and the plan. When the plan leaves them
   * as they are, only the size or the place can change: that is a resize.
   */
  private async replace(
    write: TreeWrite,
    scope: ColumnScope,
    body: UpdateColumnDto,
    elements: readonly PreparedElement[],
    conditions: RequestConditions,
  ): Promise<Representation<ColumnResponse>> {
    const current = (await this.columns.findForWrite(write.tx, scope)) ?? notFound('Column');
    conditions.assertPreconditions(nodeTag(current.revision));
    const contents = this.planContents(elements, current.contents);
    if (sameContents(contents, current)) return this.resize(write, scope, body, conditions);
    const size = body.size ?? current.size;
    assertFitsInRow(current.others, size);
    const sortKey = await this.order.keyAt(write.tx, 'column', {
      projectId: scope.projectId,
      parentId: scope.rowId,
      position: body.position,
      selfId: scope.columnId,
    });
    const written = await this.columns.replaceContents(write.tx, scope, contents, {
      sortKey: sortKey ?? null,
      size,
    });
    const project = await write.project;
    assertTreeWithin(project.treeBytes, written.treeBytes);
    return answerNode<ColumnResponse>(written.json, project.revision, project.revision);
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
