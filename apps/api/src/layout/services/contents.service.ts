import { Injectable } from '@nestjs/common';
import {
  type ContentResponse,
  type CreateContentDto,
  type UpdateContentDto,
} from '@layout/contracts';
import { type SerializedJson } from '../../common/json/serialized-json';
import { ContentComposer } from '../content/content-composer';
import { type ContentRecord } from '../layout.records';
import { type ColumnScope, type ContentScope } from '../layout.scopes';
import { ContentsRepository } from '../repositories/contents.repository';
import { notFound } from './not-found';
import { assertPathId } from './path-id';

@Injectable()
export class ContentsService {
  constructor(
    private readonly contents: ContentsRepository,
    private readonly composer: ContentComposer,
  ) {}

  async list(scope: ColumnScope): Promise<SerializedJson<ContentResponse[]>> {
    return (await this.contents.listDocument(scope)) ?? notFound('Column');
  }

  async retrieve(scope: ContentScope): Promise<SerializedJson<ContentResponse>> {
    return (await this.contents.findDocument(scope)) ?? notFound('Content');
  }

  async create(scope: ColumnScope, body: CreateContentDto): Promise<ContentRecord> {
    const created = await this.contents.create(scope, this.composer.compose(body), body.position);
    return created ?? notFound('Column');
  }

  async update(scope: ContentScope, body: UpdateContentDto): Promise<ContentRecord> {
    assertPathId(body._id, scope.contentId);
    const updated = await this.contents.update(
      scope,
      (current) => this.composer.compose(body, current),
      body.position,
    );
    return updated ?? notFound('Content');
  }

  async delete(scope: ContentScope): Promise<void> {
    if (!(await this.contents.delete(scope))) notFound('Content');
  }
}
