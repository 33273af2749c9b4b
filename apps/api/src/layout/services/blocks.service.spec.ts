import { jest } from '@jest/globals';
import { type BlockResponse, type CreateBlockDto, type UpdateBlockDto } from '@layout/contracts';
import { SerializedJson } from '../../common/json/serialized-json';
import { ResourceNotFoundError } from '../../common/errors';
import { type BlockRecord } from '../layout.records';
import { type BlockScope, type ProjectScope } from '../layout.scopes';
import { type BlocksRepository } from '../repositories/blocks.repository';
import { BlocksService } from './blocks.service';

const PROJECT: ProjectScope = { accountId: 'acc', projectId: 'prj' };
const BLOCK: BlockScope = { ...PROJECT, blockId: 'blk' };

const DEFAULT_BLOCK_STYLE = {
  backgroundImage: '',
  backgroundRepeat: 'no-repeat',
  backgroundSize: 'cover',
  backgroundPosition: 'center center',
  opacity: 1,
  backgroundColor: 'rgba(255, 255, 255, 1)',
};

const RECORD: BlockRecord = {
  id: 'blk',
  description: 'Intro',
  style: { ...DEFAULT_BLOCK_STYLE, backgroundRepeat: 'no-repeat' },
  createdAt: new Date('2024-01-01T00:00:00Z'),
  updatedAt: new Date('2024-01-01T00:00:00Z'),
  rows: [],
};

const DOCUMENT = new SerializedJson<BlockResponse>('{"_id":"x"}');
const LIST_DOCUMENT = new SerializedJson<BlockResponse[]>('[]');

function repositoryMock() {
  return {
    listDocument: jest.fn<BlocksRepository['listDocument']>(),
    findTreeDocument: jest.fn<BlocksRepository['findTreeDocument']>(),
    create: jest.fn<BlocksRepository['create']>(),
    update: jest.fn<BlocksRepository['update']>(),
    delete: jest.fn<BlocksRepository['delete']>(),
  };
}

const body = <T>(value: object) => value as T;

describe('BlocksService', () => {
  let repository: ReturnType<typeof repositoryMock>;
  let service: BlocksService;

  beforeEach(() => {
    repository = repositoryMock();
    service = new BlocksService(repository as unknown as BlocksRepository);
  });

  describe('create', () => {
    it('fills in the whole default block style, backgroundColor included', async () => {
      repository.create.mockResolvedValue(RECORD);
      await expect(
        service.create(PROJECT, body<CreateBlockDto>({ description: 'Intro' })),
      ).resolves.toBe(RECORD);
      expect(repository.create).toHaveBeenCalledWith(
        PROJECT,
        { description: 'Intro', style: DEFAULT_BLOCK_STYLE },
        undefined,
      );
    });

    it('merges a partial style onto the defaults, ignoring undefined members', async () => {
      repository.create.mockResolvedValue(RECORD);
      await service.create(
        PROJECT,
        body<CreateBlockDto>({
          description: 'Intro',
          style: { backgroundColor: '#000', opacity: undefined, backgroundSize: 'contain' },
          position: 1,
        }),
      );
      expect(repository.create).toHaveBeenCalledWith(
        PROJECT,
        {
          description: 'Intro',
          style: { ...DEFAULT_BLOCK_STYLE, backgroundColor: '#000', backgroundSize: 'contain' },
        },
        1,
      );
    });

    it('maps a missing project to ResourceNotFoundError', async () => {
      repository.create.mockResolvedValue(null);
      const result = service.create(PROJECT, body<CreateBlockDto>({ description: 'x' }));
      await expect(result).rejects.toBeInstanceOf(ResourceNotFoundError);
      await expect(result).rejects.toMatchObject({ resource: 'Project' });
    });
  });

  describe('update', () => {
    it('leaves description and style untouched when they are left out', async () => {
      repository.update.mockResolvedValue(RECORD);
      await expect(service.update(BLOCK, body<UpdateBlockDto>({ position: 0 }))).resolves.toBe(
        RECORD,
      );
      expect(repository.update).toHaveBeenCalledWith(
        BLOCK,
        { description: undefined, style: undefined },
        0,
      );
    });

    it('replaces the style whole, missing members taking their defaults', async () => {
      repository.update.mockResolvedValue(RECORD);
      await service.update(
        BLOCK,
        body<UpdateBlockDto>({ description: 'New', style: { backgroundColor: 'red' } }),
      );
      expect(repository.update).toHaveBeenCalledWith(
        BLOCK,
        { description: 'New', style: { ...DEFAULT_BLOCK_STYLE, backgroundColor: 'red' } },
        undefined,
      );
    });

    it('maps a missing block to ResourceNotFoundError', async () => {
      repository.update.mockResolvedValue(null);
      const result = service.update(BLOCK, body<UpdateBlockDto>({ description: 'x' }));
      await expect(result).rejects.toBeInstanceOf(ResourceNotFoundError);
      await expect(result).rejects.toMatchObject({ resource: 'Block' });
    });
  });

  describe('reads and delete', () => {
    it('lists, or maps a missing project to ResourceNotFoundError', async () => {
      repository.listDocument.mockResolvedValueOnce(LIST_DOCUMENT).mockResolvedValueOnce(null);
      await expect(service.list(PROJECT)).resolves.toBe(LIST_DOCUMENT);
      await expect(service.list(PROJECT)).rejects.toMatchObject({ resource: 'Project' });
      expect(repository.listDocument).toHaveBeenCalledWith(PROJECT);
    });

    it('retrieves, or maps a missing block to ResourceNotFoundError', async () => {
      repository.findTreeDocument.mockResolvedValueOnce(DOCUMENT).mockResolvedValueOnce(null);
      await expect(service.retrieve(BLOCK)).resolves.toBe(DOCUMENT);
      const missing = service.retrieve(BLOCK);
      await expect(missing).rejects.toBeInstanceOf(ResourceNotFoundError);
      await expect(missing).rejects.toMatchObject({ resource: 'Block' });
    });

    it('deletes, or maps a missing block to ResourceNotFoundError', async () => {
      repository.delete.mockResolvedValueOnce(true).mockResolvedValueOnce(false);
      await expect(service.delete(BLOCK)).resolves.toBeUndefined();
      await expect(service.delete(BLOCK)).rejects.toMatchObject({ resource: 'Block' });
      expect(repository.delete).toHaveBeenCalledWith(BLOCK);
    });
  });
});
