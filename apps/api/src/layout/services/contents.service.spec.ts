import { jest } from '@jest/globals';
import {
  type ContentResponse,
  type CreateContentDto,
  type UpdateContentDto,
} from '@layout/contracts';
import { SerializedJson } from '../../common/json/serialized-json';
import { RequestValidationError, ResourceNotFoundError } from '../../common/errors';
import { ContentComposer } from '../content/content-composer';
import { type ContentRecord } from '../layout.records';
import { type ColumnScope, type ContentScope } from '../layout.scopes';
import { type ContentPlan, type ContentsRepository } from '../repositories/contents.repository';
import { ContentsService } from './contents.service';

const COLUMN: ColumnScope = {
  accountId: 'acc',
  projectId: 'prj',
  blockId: 'blk',
  rowId: 'row',
  columnId: 'col',
};
const CONTENT: ContentScope = { ...COLUMN, contentId: 'cnt' };

const DEFAULT_STYLE = {
  backgroundImage: '',
  backgroundRepeat: 'no-repeat',
  backgroundSize: 'cover',
  backgroundPosition: 'center center',
  opacity: 1,
} as const;

const STORED: ContentRecord = {
  id: 'cnt',
  type: 'video',
  style: { ...DEFAULT_STYLE, backgroundSize: 'contain', opacity: 0.5 },
  data: { url: 'https://vimeo.com/1', provider: 'vimeo' },
};

const DOCUMENT = new SerializedJson<ContentResponse>('{"_id":"x"}');
const LIST_DOCUMENT = new SerializedJson<ContentResponse[]>('[]');

function repositoryMock() {
  return {
    listDocument: jest.fn<ContentsRepository['listDocument']>(),
    findDocument: jest.fn<ContentsRepository['findDocument']>(),
    create: jest.fn<ContentsRepository['create']>(),
    update: jest.fn<ContentsRepository['update']>(),
    delete: jest.fn<ContentsRepository['delete']>(),
  };
}

const body = <T>(value: object) => value as T;

describe('ContentsService', () => {
  let repository: ReturnType<typeof repositoryMock>;
  let service: ContentsService;

  beforeEach(() => {
    repository = repositoryMock();
    service = new ContentsService(
      repository as unknown as ContentsRepository,
      new ContentComposer(),
    );
  });

  describe('create', () => {
    it('writes the composed content (defaults filled in) at the position given', async () => {
      repository.create.mockResolvedValue(STORED);
      await expect(
        service.create(COLUMN, body<CreateContentDto>({ type: 'empty', position: 3 })),
      ).resolves.toBe(STORED);
      expect(repository.create).toHaveBeenCalledWith(
        COLUMN,
        { type: 'empty', style: DEFAULT_STYLE, data: {} },
        3,
      );
    });

    it('sanitises text and infers a video provider before writing', async () => {
      repository.create.mockResolvedValue(STORED);
      await service.create(
        COLUMN,
        body<CreateContentDto>({
          type: 'text',
          style: { opacity: 0.2 },
          data: { html: '<strong>hi</strong><script>alert(1)</script>' },
        }),
      );
      await service.create(
        COLUMN,
        body<CreateContentDto>({ type: 'video', data: { url: 'https://youtu.be/x' } }),
      );
      expect(repository.create.mock.calls.map(([, written]) => written)).toEqual([
        {
          type: 'text',
          style: { ...DEFAULT_STYLE, opacity: 0.2 },
          data: { html: '<strong>hi</strong>' },
        },
        {
          type: 'video',
          style: DEFAULT_STYLE,
          data: { url: 'https://youtu.be/x', provider: 'youtube' },
        },
      ]);
    });

    it('maps a missing column to ResourceNotFoundError', async () => {
      repository.create.mockResolvedValue(null);
      const result = service.create(COLUMN, body<CreateContentDto>({ type: 'empty' }));
      await expect(result).rejects.toBeInstanceOf(ResourceNotFoundError);
      await expect(result).rejects.toMatchObject({ resource: 'Column' });
    });
  });

  describe('update', () => {
    async function planFor(update: object): Promise<ContentPlan> {
      repository.update.mockResolvedValue(STORED);
      await service.update(CONTENT, body<UpdateContentDto>(update));
      expect(repository.update).toHaveBeenCalledTimes(1);
      return repository.update.mock.calls[0][1];
    }

    it('passes the scope and the position to the repository', async () => {
      repository.update.mockResolvedValue(STORED);
      await expect(
        service.update(CONTENT, body<UpdateContentDto>({ type: 'video', position: 0 })),
      ).resolves.toBe(STORED);
      expect(repository.update).toHaveBeenCalledWith(CONTENT, expect.any(Function), 0);
    });

    it('keeps the stored style and data when only the type (unchanged) is sent', async () => {
      const plan = await planFor({ type: 'video' });
      expect(plan(STORED)).toEqual({ type: 'video', style: STORED.style, data: STORED.data });
    });

    it('resets data to {} when the type changes without data', async () => {
      const plan = await planFor({ type: 'image' });
      expect(plan(STORED)).toEqual({ type: 'image', style: STORED.style, data: {} });
    });

    it('replaces style whole and keeps data when style alone is sent', async () => {
      const plan = await planFor({ type: 'video', style: { backgroundRepeat: 'round' } });
      expect(plan(STORED)).toEqual({
        type: 'video',
        style: { ...DEFAULT_STYLE, backgroundRepeat: 'round' },
        data: STORED.data,
      });
    });

    it('infers the provider of new video data', async () => {
      const plan = await planFor({ type: 'video', data: { url: 'https://loom.com/share/x' } });
      expect(plan(STORED).data).toEqual({ url: 'https://loom.com/share/x', provider: 'loom' });
    });

    it('accepts the _id of the path', async () => {
      repository.update.mockResolvedValue(STORED);
      await expect(
        service.update(CONTENT, body<UpdateContentDto>({ _id: 'cnt', type: 'video' })),
      ).resolves.toBe(STORED);
    });

    it('refuses an _id other than the path one, pointer /_id, without writing', async () => {
      const error = await service
        .update(CONTENT, body<UpdateContentDto>({ _id: 'other', type: 'video' }))
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).errors).toEqual([
        { pointer: '/_id', detail: expect.any(String) },
      ]);
      expect(repository.update).not.toHaveBeenCalled();
    });

    it('maps a missing content to ResourceNotFoundError', async () => {
      repository.update.mockResolvedValue(null);
      const result = service.update(CONTENT, body<UpdateContentDto>({ type: 'empty' }));
      await expect(result).rejects.toBeInstanceOf(ResourceNotFoundError);
      await expect(result).rejects.toMatchObject({ resource: 'Content' });
    });
  });

  describe('reads and delete', () => {
    it('lists, or maps a missing column to ResourceNotFoundError', async () => {
      repository.listDocument.mockResolvedValueOnce(LIST_DOCUMENT).mockResolvedValueOnce(null);
      await expect(service.list(COLUMN)).resolves.toBe(LIST_DOCUMENT);
      await expect(service.list(COLUMN)).rejects.toMatchObject({ resource: 'Column' });
      expect(repository.listDocument).toHaveBeenCalledWith(COLUMN);
    });

    it('retrieves, or maps a missing content to ResourceNotFoundError', async () => {
      repository.findDocument.mockResolvedValueOnce(DOCUMENT).mockResolvedValueOnce(null);
      await expect(service.retrieve(CONTENT)).resolves.toBe(DOCUMENT);
      const missing = service.retrieve(CONTENT);
      await expect(missing).rejects.toBeInstanceOf(ResourceNotFoundError);
      await expect(missing).rejects.toMatchObject({ resource: 'Content' });
    });

    it('deletes, or maps a missing content to ResourceNotFoundError', async () => {
      repository.delete.mockResolvedValueOnce(true).mockResolvedValueOnce(false);
      await expect(service.delete(CONTENT)).resolves.toBeUndefined();
      await expect(service.delete(CONTENT)).rejects.toMatchObject({ resource: 'Content' });
      expect(repository.delete).toHaveBeenCalledWith(CONTENT);
    });
  });
});
