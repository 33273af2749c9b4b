import { Injectable } from '@nestjs/common';
import {
  type BlockResponse,
  type BlockStyleDto,
  type CreateBlockDto,
  DEFAULT_BLOCK_STYLE,
  type UpdateBlockDto,
} from '@layout/contracts';
import { type SerializedJson } from '../../common/json/serialized-json';
import { definedMembers } from '../content/defined-members';
import { type BlockRecord } from '../layout.records';
import { type BlockScope, type ProjectScope } from '../layout.scopes';
import { BlocksRepository } from '../repositories/blocks.repository';
import { notFound } from './not-found';

@Injectable()
export class BlocksService {
  constructor(private readonly blocks: BlocksRepository) {}

  async list(scope: ProjectScope): Promise<SerializedJson<BlockResponse[]>> {
    return (await this.blocks.listDocument(scope)) ?? notFound('Project');
  }

  async retrieve(scope: BlockScope): Promise<SerializedJson<BlockResponse>> {
    return (await this.blocks.findTreeDocument(scope)) ?? notFound('Block');
  }

  async create(scope: ProjectScope, body: CreateBlockDto): Promise<BlockRecord> {
    const created = await this.blocks.create(
      scope,
      { description: body.description, style: withDefaults(body.style) },
      body.position,
    );
    return created ?? notFound('Project');
  }

  /** A given `style` replaces the stored one whole; its missing members take their defaults. */
  async update(scope: BlockScope, body: UpdateBlockDto): Promise<BlockRecord> {
    const updated = await this.blocks.update(
      scope,
      {
        description: body.description,
        style: body.style === undefined ? undefined : withDefaults(body.style),
      },
      body.position,
    );
    return updated ?? notFound('Block');
  }

  async delete(scope: BlockScope): Promise<void> {
    if (!(await this.blocks.delete(scope))) notFound('Block');
  }
}

function withDefaults(style: BlockStyleDto | undefined) {
  return { ...DEFAULT_BLOCK_STYLE, ...(style && definedMembers(style)) };
}
