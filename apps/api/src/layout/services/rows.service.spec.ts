import { jest } from '@jest/globals';
import { type RowResponse, type CreateRowDto, type UpdateRowDto } from '@layout/contracts';
import { SerializedJson } from '../../common/json/serialized-json';
import { ResourceNotFoundError } from '../../common/errors';
import { type RowRecord } from '../layout.records';
import { type BlockScope, type RowScope } from '../layout.scopes';
import { type RowsRepository } from '../repositories/rows.repository';
import { RowsService } from './rows.service';

const BLOCK: BlockScope = { accountId: 'acc', projectId: 'prj', blockId: 'blk' };
const ROW: RowScope = { ...BLOCK, rowId: 'row' };
const RECORD: RowRecord = { id: 'row', description: '', columns: [] };

const DOCUMENT = new SerializedJson<RowResponse>('{"_id":"x"}');
const LIST_DOCUMENT = new SerializedJson<RowResponse[]>('[]');

function repositoryMock() {
  return {
    listDocument: jest.fn<RowsRepository['listDocument']>(),
    findTreeDocument: jest.fn<RowsRepository['findTreeDocument']>(),
    create: jest.fn<RowsRepository['create']>(),
    update: jest.fn<RowsRepository['update']>(),
    delete: jest.fn<RowsRepository['delete']>(),
  };
}

const body = <T>(value: object) => value as T;

describe('RowsService', () => {
  let repository: ReturnType<typeof repositoryMock>;
  let service: RowsService;

  beforeEach(() => {
    repository = repositoryMock();
    service = new RowsService(repository as unknown as RowsRepository);
  });

  describe('create', () => {
    it('defaults the description to an empty string', async () => {
      repository.create.mockResolvedValue(RECORD);
      await expect(service.create(BLOCK, body<CreateRowDto>({}))).resolves.toBe(RECORD);
      expect(repository.create).toHaveBeenCalledWith(BLOCK, { description: '' }, undefined);
    });

    it('keeps a given description and position', async () => {
      repository.create.mockResolvedValue(RECORD);
      await service.create(BLOCK, body<CreateRowDto>({ description: 'Pricing', position: 2 }));
      expect(repository.create).toHaveBeenCalledWith(BLOCK, { description: 'Pricing' }, 2);
    });

    it('maps a missing block to ResourceNotFoundError', async () => {
      repository.create.mockResolvedValue(null);
      const result = service.create(BLOCK, body<CreateRowDto>({}));
      await expect(result).rejects.toBeInstanceOf(ResourceNotFoundError);
      await expect(result).rejects.toMatchObject({ resource: 'Block' });
    });
  });

  describe('update', () => {
    it('leaves the description untouched when it is left out (no default on update)', async () => {
      repository.update.mockResolvedValue(RECORD);
      await expect(service.update(ROW, body<UpdateRowDto>({ position: 4 }))).resolves.toBe(RECORD);
      expect(repository.update).toHaveBeenCalledWith(ROW, { description: undefined }, 4);
    });

    it('passes a given description on', async () => {
      repository.update.mockResolvedValue(RECORD);
      await service.update(ROW, body<UpdateRowDto>({ description: '' }));
      expect(repository.update).toHaveBeenCalledWith(ROW, { description: '' }, undefined);
    });

    it('maps a missing row to ResourceNotFoundError', async () => {
      repository.update.mockResolvedValue(null);
      const result = service.update(ROW, body<UpdateRowDto>({ description: 'x' }));
      await expect(result).rejects.toBeInstanceOf(ResourceNotFoundError);
      await expect(result).rejects.toMatchObject({ resource: 'Row' });
    });
  });

  describe('reads and delete', () => {
    it('lists, or maps a missing block to ResourceNotFoundError', async () => {
      repository.listDocument.mockResolvedValueOnce(LIST_DOCUMENT).mockResolvedValueOnce(null);
      await expect(service.list(BLOCK)).resolves.toBe(LIST_DOCUMENT);
      await expect(service.list(BLOCK)).rejects.toMatchObject({ resource: 'Block' });
      expect(repository.listDocument).toHaveBeenCalledWith(BLOCK);
    });

    it('retrieves, or maps a missing row to ResourceNotFoundError', async () => {
      repository.findTreeDocument.mockResolvedValueOnce(DOCUMENT).mockResolvedValueOnce(null);
      await expect(service.retrieve(ROW)).resolves.toBe(DOCUMENT);
      const missing = service.retrieve(ROW);
      await expect(missing).rejects.toBeInstanceOf(ResourceNotFoundError);
      await expect(missing).rejects.toMatchObject({ resource: 'Row' });
    });

    it('deletes, or maps a missing row to ResourceNotFoundError', async () => {
      repository.delete.mockResolvedValueOnce(true).mockResolvedValueOnce(false);
      await expect(service.delete(ROW)).resolves.toBeUndefined();
      await expect(service.delete(ROW)).rejects.toMatchObject({ resource: 'Row' });
      expect(repository.delete).toHaveBeenCalledWith(ROW);
    });
  });
});
