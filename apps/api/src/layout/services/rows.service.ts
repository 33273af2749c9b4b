import { Injectable } from '@nestjs/common';
import { type RowResponse, type CreateRowDto, type UpdateRowDto } from '@layout/contracts';
import { type SerializedJson } from '../../common/json/serialized-json';
import { type RowRecord } from '../layout.records';
import { type BlockScope, type RowScope } from '../layout.scopes';
import { RowsRepository } from '../repositories/rows.repository';
import { notFound } from './not-found';

@Injectable()
export class RowsService {
  constructor(private readonly rows: RowsRepository) {}

  async list(scope: BlockScope): Promise<SerializedJson<RowResponse[]>> {
    return (await this.rows.listDocument(scope)) ?? notFound('Block');
  }

  async retrieve(scope: RowScope): Promise<SerializedJson<RowResponse>> {
    return (await this.rows.findTreeDocument(scope)) ?? notFound('Row');
  }

  async create(scope: BlockScope, body: CreateRowDto): Promise<RowRecord> {
    const created = await this.rows.create(
      scope,
      { description: body.description ?? '' },
      body.position,
    );
    return created ?? notFound('Block');
  }

  async update(scope: RowScope, body: UpdateRowDto): Promise<RowRecord> {
    const updated = await this.rows.update(scope, { description: body.description }, body.position);
    return updated ?? notFound('Row');
  }

  async delete(scope: RowScope): Promise<void> {
    if (!(await this.rows.delete(scope))) notFound('Row');
  }
}
