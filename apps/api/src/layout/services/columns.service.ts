import { Injectable } from '@nestjs/common';
import {
  type ColumnResponse,
  type ColumnContentDto,
  type CreateColumnDto,
  ROW_WIDTH,
  type UpdateColumnDto,
} from '@layout/contracts';
import { type SerializedJson } from '../../common/json/serialized-json';
import { RequestValidationError, RowWidthExceededError } from '../../common/errors';
import { ContentComposer } from '../content/content-composer';
import { type ColumnRecord, type ContentRecord, type ContentWrite } from '../layout.records';
import { type ColumnScope, type RowScope } from '../layout.scopes';
import { ColumnsRepository, type RowWidthCheck } from '../repositories/columns.repository';
import { notFound } from './not-found';
import { assertPathId } from './path-id';

@Injectable()
export class ColumnsService {
  constructor(
    private readonly columns: ColumnsRepository,
    private readonly composer: ContentComposer,
  ) {}

  async list(scope: RowScope): Promise<SerializedJson<ColumnResponse[]>> {
    return (await this.columns.listDocument(scope)) ?? notFound('Row');
  }

  async retrieve(scope: ColumnScope): Promise<SerializedJson<ColumnResponse>> {
    return (await this.columns.findTreeDocument(scope)) ?? notFound('Column');
  }

  async create(scope: RowScope, body: CreateColumnDto): Promise<ColumnRecord> {
    const contents = this.planContents(body.contents ?? [], []);
    const created = await this.columns.create(
      scope,
      { size: body.size, contents },
      body.position,
      fitsInRow(body.size),
    );
    return created ?? notFound('Row');
  }

  async update(scope: ColumnScope, body: UpdateColumnDto): Promise<SerializedJson<ColumnResponse>> {
    assertPathId(body._id, scope.columnId);
    const { size, contents } = body;
    const updated = await this.columns.update(
      scope,
      {
        size,
        position: body.position,
        contents: contents && ((current) => this.planContents(contents, current)),
      },
      size === undefined ? () => undefined : fitsInRow(size),
    );
    return updated ?? notFound('Column');
  }

  async delete(scope: ColumnScope): Promise<void> {
    if (!(await this.columns.delete(scope))) notFound('Column');
  }

  /**
   * A column's `contents` is its complete new list: an element with the `_id` of one of its
   * contents updates that content (members left out keep their value), one without creates a
   * content, and contents not listed go. Any other `_id` is a client error.
   */
  private planContents(
    elements: readonly ColumnContentDto[],
    current: readonly ContentRecord[],
  ): ContentWrite[] {
    const byId = new Map(current.map((content) => [content.id, content]));
    const seen = new Set<string>();
    return elements.map((element, index) => {
      if (element._id === undefined) return this.composer.compose(element);
      const existing = byId.get(element._id);
      if (!existing || seen.has(element._id)) {
        throw new RequestValidationError([
          {
            pointer: `/contents/${index}/_id`,
            detail: existing
              ? 'is listed twice'
              : 'is not the id of a content of this column (leave _id out to create a content)',
          },
        ]);
      }
      seen.add(element._id);
      return { id: element._id, ...this.composer.compose(element, existing) };
    });
  }
}

function fitsInRow(size: number): RowWidthCheck {
  return (usedByOthers) => {
    if (usedByOthers + size > ROW_WIDTH) {
      throw new RowWidthExceededError(Math.max(0, ROW_WIDTH - usedByOthers), size, ROW_WIDTH);
    }
  };
}
