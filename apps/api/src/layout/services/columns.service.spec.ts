import { jest } from '@jest/globals';
import { type ColumnResponse, type ColumnContentDto } from '@layout/contracts';
import { SerializedJson } from '../../common/json/serialized-json';
import {
  RequestValidationError,
  ResourceNotFoundError,
  RowWidthExceededError,
} from '../../common/errors';
import { ContentComposer } from '../content/content-composer';
import { type ColumnRecord, type ContentRecord } from '../layout.records';
import { type ColumnScope, type RowScope } from '../layout.scopes';
import {
  type ColumnsRepository,
  type ContentsPlan,
  type RowWidthCheck,
} from '../repositories/columns.repository';
import { ColumnsService } from './columns.service';

const ROW: RowScope = { accountId: 'acc', projectId: 'prj', blockId: 'blk', rowId: 'row' };
const COLUMN: ColumnScope = { ...ROW, columnId: 'col' };

const DEFAULT_STYLE = {
  backgroundImage: '',
  backgroundRepeat: 'no-repeat',
  backgroundSize: 'cover',
  backgroundPosition: 'center center',
  opacity: 1,
};

const STORED_STYLE = {
  backgroundImage: 'https://cdn.example.com/bg.png',
  backgroundRepeat: 'repeat-x',
  backgroundSize: 'contain',
  backgroundPosition: 'left top',
  opacity: 0.4,
} as const;

const COLUMN_RECORD: ColumnRecord = { id: 'col', size: 4, contents: [] };

const DOCUMENT = new SerializedJson<ColumnResponse>('{"_id":"x"}');
const LIST_DOCUMENT = new SerializedJson<ColumnResponse[]>('[]');

function repositoryMock() {
  return {
    listDocument: jest.fn<ColumnsRepository['listDocument']>(),
    findTreeDocument: jest.fn<ColumnsRepository['findTreeDocument']>(),
    create: jest.fn<ColumnsRepository['create']>(),
    update: jest.fn<ColumnsRepository['update']>(),
    delete: jest.fn<ColumnsRepository['delete']>(),
  };
}

type RepositoryMock = ReturnType<typeof repositoryMock>;

function serviceWith(repository: RepositoryMock): ColumnsService {
  return new ColumnsService(repository as unknown as ColumnsRepository, new ContentComposer());
}

/** Runs `action` and returns what it threw; fails the test when it throws nothing. */
function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the action to throw');
}

function content(id: string, overrides: Partial<ContentRecord> = {}): ContentRecord {
  return {
    id,
    type: 'text',
    style: { ...STORED_STYLE },
    data: { html: `<p>${id}</p>` },
    ...overrides,
  };
}

describe('ColumnsService', () => {
  let repository: RepositoryMock;
  let service: ColumnsService;

  beforeEach(() => {
    repository = repositoryMock();
    service = serviceWith(repository);
  });

  describe('create: row width check', () => {
    async function createdCheck(size: number): Promise<RowWidthCheck> {
      repository.create.mockResolvedValue(COLUMN_RECORD);
      await service.create(ROW, { size });
      expect(repository.create).toHaveBeenCalledTimes(1);
      return repository.create.mock.calls[0][3];
    }

    it('passes the row scope, the size, no contents and the position to the repository', async () => {
      repository.create.mockResolvedValue(COLUMN_RECORD);
      await expect(service.create(ROW, { size: 6, position: 2 })).resolves.toBe(COLUMN_RECORD);
      expect(repository.create).toHaveBeenCalledWith(
        ROW,
        { size: 6, contents: [] },
        2,
        expect.any(Function),
      );
    });

    it('passes when the new column fits exactly or with room to spare', async () => {
      const check = await createdCheck(5);
      expect(() => check(0)).not.toThrow();
      expect(() => check(6)).not.toThrow();
      expect(() => check(7)).not.toThrow();
    });

    it('throws RowWidthExceededError with what is left of the row when it does not fit', async () => {
      const check = await createdCheck(5);
      const error = thrownBy(() => check(8));
      expect(error).toBeInstanceOf(RowWidthExceededError);
      expect(error).toMatchObject({ availableSize: 4, requestedSize: 5, rowWidth: 12 });
    });

    it('reports availableSize 0 when the row is full', async () => {
      const check = await createdCheck(1);
      expect(thrownBy(() => check(12))).toMatchObject({ availableSize: 0 });
    });

    it('never reports a negative availableSize, even when the row is already over-full', async () => {
      const check = await createdCheck(3);
      const error = thrownBy(() => check(15));
      expect(error).toBeInstanceOf(RowWidthExceededError);
      expect(error).toMatchObject({ availableSize: 0 });
    });

    it('maps a missing row to ResourceNotFoundError', async () => {
      repository.create.mockResolvedValue(null);
      const result = service.create(ROW, { size: 3 });
      await expect(result).rejects.toBeInstanceOf(ResourceNotFoundError);
      await expect(result).rejects.toMatchObject({ resource: 'Row' });
    });
  });

  describe('create: contents', () => {
    it('composes every element into a new content with the defaults filled in', async () => {
      repository.create.mockResolvedValue(COLUMN_RECORD);
      await service.create(ROW, {
        size: 6,
        contents: [
          { type: 'empty' },
          { type: 'video', data: { url: 'https://youtu.be/abc' } },
        ] as ColumnContentDto[],
      });
      const written = repository.create.mock.calls[0][1].contents;
      expect(written).toEqual([
        { type: 'empty', style: DEFAULT_STYLE, data: {} },
        {
          type: 'video',
          style: DEFAULT_STYLE,
          data: { url: 'https://youtu.be/abc', provider: 'youtube' },
        },
      ]);
      for (const element of written) expect(element).not.toHaveProperty('id');
    });

    it('refuses an _id (no content of a column that does not exist yet) without writing', async () => {
      const error = await service
        .create(ROW, {
          size: 6,
          contents: [{ type: 'empty' }, { _id: 'elsewhere', type: 'empty' }] as ColumnContentDto[],
        })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).errors).toEqual([
        { pointer: '/contents/1/_id', detail: expect.any(String) },
      ]);
      expect(repository.create).not.toHaveBeenCalled();
    });
  });

  describe('update: row width check', () => {
    async function updatedCheck(size: number | undefined): Promise<RowWidthCheck> {
      repository.update.mockResolvedValue(DOCUMENT);
      await service.update(COLUMN, { size });
      expect(repository.update).toHaveBeenCalledTimes(1);
      return repository.update.mock.calls[0][2];
    }

    it('passes when the resized column fits beside the others', async () => {
      const check = await updatedCheck(8);
      expect(() => check(0)).not.toThrow();
      expect(() => check(4)).not.toThrow();
    });

    it('throws RowWidthExceededError with 12 minus the width of the other columns', async () => {
      const check = await updatedCheck(8);
      const error = thrownBy(() => check(5));
      expect(error).toBeInstanceOf(RowWidthExceededError);
      expect(error).toMatchObject({ availableSize: 7, requestedSize: 8, rowWidth: 12 });
    });

    it('never reports a negative availableSize', async () => {
      const check = await updatedCheck(2);
      expect(thrownBy(() => check(20))).toMatchObject({ availableSize: 0 });
    });

    it('passes a check that never throws when the size is left out', async () => {
      const check = await updatedCheck(undefined);
      for (const used of [0, 11, 12, 13, 1000]) expect(() => check(used)).not.toThrow();
    });

    it('changes only the members given: no size, position or contents plan when left out', async () => {
      repository.update.mockResolvedValue(DOCUMENT);
      await expect(service.update(COLUMN, { size: 4 })).resolves.toBe(DOCUMENT);
      expect(repository.update).toHaveBeenCalledWith(
        COLUMN,
        { size: 4, position: undefined, contents: undefined },
        expect.any(Function),
      );
    });

    it('passes the position on', async () => {
      repository.update.mockResolvedValue(DOCUMENT);
      await service.update(COLUMN, { position: 0 });
      expect(repository.update.mock.calls[0][1]).toMatchObject({ position: 0, size: undefined });
    });

    it('maps a missing column to ResourceNotFoundError', async () => {
      repository.update.mockResolvedValue(null);
      const result = service.update(COLUMN, { size: 3 });
      await expect(result).rejects.toBeInstanceOf(ResourceNotFoundError);
      await expect(result).rejects.toMatchObject({ resource: 'Column' });
    });
  });

  describe('update: _id in the body', () => {
    it('accepts the _id of the path', async () => {
      repository.update.mockResolvedValue(DOCUMENT);
      await expect(service.update(COLUMN, { _id: 'col', size: 2 })).resolves.toBe(DOCUMENT);
    });

    it('refuses another _id with pointer /_id, without writing', async () => {
      const error = await service
        .update(COLUMN, { _id: 'other', size: 2 })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).errors).toEqual([
        { pointer: '/_id', detail: expect.any(String) },
      ]);
      expect(repository.update).not.toHaveBeenCalled();
    });
  });

  describe('update: planContents', () => {
    async function planFor(contents: readonly object[]): Promise<ContentsPlan> {
      repository.update.mockResolvedValue(DOCUMENT);
      await service.update(COLUMN, { contents: contents as ColumnContentDto[] });
      const plan = repository.update.mock.calls[0][1].contents;
      if (!plan) throw new Error('expected a contents plan');
      return plan;
    }

    const current = [content('k1'), content('k2', { type: 'image', data: { alt: 'logo' } })];

    it('updates listed contents in place, creates those without _id, leaves out the others', async () => {
      const plan = await planFor([{ type: 'empty' }, { _id: 'k1', type: 'text' }]);
      const written = plan(current);
      expect(written).toEqual([
        { type: 'empty', style: DEFAULT_STYLE, data: {} },
        { id: 'k1', type: 'text', style: STORED_STYLE, data: { html: '<p>k1</p>' } },
      ]);
      expect(written[0]).not.toHaveProperty('id');
      expect(written.map((element) => element.id)).not.toContain('k2');
    });

    it('keeps stored style and data for members left out of an element', async () => {
      const plan = await planFor([{ _id: 'k2', type: 'image' }]);
      expect(plan(current)).toEqual([
        { id: 'k2', type: 'image', style: STORED_STYLE, data: { alt: 'logo' } },
      ]);
    });

    it('replaces members that are given', async () => {
      const plan = await planFor([
        { _id: 'k1', type: 'text', style: { opacity: 0.5 }, data: { html: '<em>new</em>' } },
      ]);
      expect(plan(current)).toEqual([
        {
          id: 'k1',
          type: 'text',
          style: { ...DEFAULT_STYLE, opacity: 0.5 },
          data: { html: '<em>new</em>' },
        },
      ]);
    });

    it('resets data to {} when the type changes and data is left out', async () => {
      const plan = await planFor([{ _id: 'k1', type: 'quote' }]);
      expect(plan(current)).toEqual([{ id: 'k1', type: 'quote', style: STORED_STYLE, data: {} }]);
    });

    it('an empty list deletes every content', async () => {
      const plan = await planFor([]);
      expect(plan(current)).toEqual([]);
    });

    it('refuses an _id that is not a content of this column, with its pointer', async () => {
      const plan = await planFor([
        { _id: 'k1', type: 'text' },
        { _id: 'stranger', type: 'text' },
      ]);
      const error = thrownBy(() => plan(current));
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).errors).toEqual([
        { pointer: '/contents/1/_id', detail: expect.any(String) },
      ]);
    });

    it('refuses an _id listed twice', async () => {
      const plan = await planFor([
        { _id: 'k2', type: 'image' },
        { type: 'empty' },
        { _id: 'k2', type: 'image' },
      ]);
      const error = thrownBy(() => plan(current));
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).errors).toEqual([
        { pointer: '/contents/2/_id', detail: 'is listed twice' },
      ]);
    });
  });

  describe('reads and delete', () => {
    it('lists the columns of a row', async () => {
      repository.listDocument.mockResolvedValue(LIST_DOCUMENT);
      await expect(service.list(ROW)).resolves.toBe(LIST_DOCUMENT);
      expect(repository.listDocument).toHaveBeenCalledWith(ROW);
    });

    it('maps a missing row on list to ResourceNotFoundError', async () => {
      repository.listDocument.mockResolvedValue(null);
      await expect(service.list(ROW)).rejects.toMatchObject({ resource: 'Row' });
    });

    it('retrieves a column, or maps a missing one to ResourceNotFoundError', async () => {
      repository.findTreeDocument.mockResolvedValueOnce(DOCUMENT).mockResolvedValueOnce(null);
      await expect(service.retrieve(COLUMN)).resolves.toBe(DOCUMENT);
      const missing = service.retrieve(COLUMN);
      await expect(missing).rejects.toBeInstanceOf(ResourceNotFoundError);
      await expect(missing).rejects.toMatchObject({ resource: 'Column' });
    });

    it('deletes a column, or maps a missing one to ResourceNotFoundError', async () => {
      repository.delete.mockResolvedValueOnce(true).mockResolvedValueOnce(false);
      await expect(service.delete(COLUMN)).resolves.toBeUndefined();
      await expect(service.delete(COLUMN)).rejects.toBeInstanceOf(ResourceNotFoundError);
      expect(repository.delete).toHaveBeenCalledWith(COLUMN);
    });
  });
});
