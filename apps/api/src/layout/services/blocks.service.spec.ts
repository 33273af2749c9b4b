import { jest } from '@jest/globals';
import { BlockStyleDto, DEFAULT_BLOCK_STYLE } from '@layout/contracts';
import { LimitExceededError, PreconditionFailedError } from '../../common/errors';
import { RequestConditions } from '../../common/http/request-conditions';
import { type BlockScope, type ProjectScope } from '../layout.scopes';
import { type BlocksRepository } from '../repositories/blocks.repository';
import {
  BLOCK,
  DB,
  describeNodeDelete,
  describeNodeReads,
  expectNotFound,
  ifMatch,
  keyAtMock,
  LATE_LOCK,
  lockFinds,
  MiB,
  pendingLock,
  PROJECT,
  readsMock,
  settle,
  TX,
  type WriterMock,
  writerMock,
} from '../../../../../test/support/layout-service-fakes';
import { BlocksService } from './blocks.service';
import { type TreeWriter } from './tree-writer';

const CUSTOM_STYLE = { ...DEFAULT_BLOCK_STYLE, backgroundColor: '#ff0000', opacity: 0.5 };
/** The block as findForWrite reads it under the lock: last changed at revision 5. */
const CURRENT = { revision: 5, description: 'Intro', style: CUSTOM_STYLE };

function repositoryMock() {
  return {
    reads: { block: readsMock<BlockScope>(), list: readsMock<ProjectScope>() },
    insert: jest.fn<BlocksRepository['insert']>(),
    findForWrite: jest.fn<BlocksRepository['findForWrite']>(),
    update: jest.fn<BlocksRepository['update']>(),
    delete: jest.fn<BlocksRepository['delete']>(),
  };
}

describe('BlocksService', () => {
  let blocks: ReturnType<typeof repositoryMock>;
  let keyAt: ReturnType<typeof keyAtMock>;
  let writer: WriterMock;
  let service: BlocksService;

  beforeEach(() => {
    blocks = repositoryMock();
    keyAt = keyAtMock();
    writer = writerMock();
    service = new BlocksService(
      DB,
      writer as unknown as TreeWriter,
      blocks as unknown as BlocksRepository,
      { keyAt },
    );
  });

  describeNodeReads({ node: 'Block', parent: 'Project' }, { node: BLOCK, parent: PROJECT }, () => ({
    service,
    node: blocks.reads.block,
    list: blocks.reads.list,
  }));

  describe('create', () => {
    const CREATED = { id: 'b9', json: '{"_id":"b9"}', siblings: 3, treeBytes: 1200 };

    it('appends at the new revision and answers the block with its tag, revision and Location', async () => {
      blocks.insert.mockResolvedValue(CREATED);
      const answer = await service.create(PROJECT, { description: 'Intro' });

      expect(writer.write).toHaveBeenCalledWith(PROJECT, expect.any(Function), undefined);
      expect(keyAt).toHaveBeenCalledWith(TX, 'block', {
        projectId: 'p1',
        parentId: 'p1',
        position: undefined,
        selfId: null,
      });
      expect(blocks.insert).toHaveBeenCalledWith(
        TX,
        PROJECT,
        { description: 'Intro', style: { ...DEFAULT_BLOCK_STYLE } },
        { sortKey: null },
      );
      expect(answer.body?.text).toBe(CREATED.json);
      expect(answer.headers).toEqual({
        etag: '"r8"',
        projectRevision: 8,
        location: '/projects/p1/blocks/b9',
      });
    });

    it('sends its statements without waiting for the lock’s answer, then answers at the revision the lock reports', async () => {
      blocks.insert.mockResolvedValue(CREATED);
      const lock = pendingLock(writer);
      const answer = service.create(PROJECT, { description: 'Intro' });
      await settle();
      expect(keyAt).toHaveBeenCalledTimes(1);
      expect(blocks.insert).toHaveBeenCalledTimes(1);
      lock.resolve(LATE_LOCK);
      await expect(answer).resolves.toMatchObject({
        headers: { etag: '"r13"', projectRevision: 13 },
      });
    });

    it('asks the place of a position as a new node (selfId null) and inserts there', async () => {
      blocks.insert.mockResolvedValue(CREATED);
      await service.create(PROJECT, { description: '', position: 0 });
      expect(keyAt).toHaveBeenCalledWith(TX, 'block', {
        projectId: 'p1',
        parentId: 'p1',
        position: 0,
        selfId: null,
      });
      expect(blocks.insert.mock.calls[0][3]).toEqual({ sortKey: '1500' });
    });

    it('fills the defaults into a partial style, ignoring members left undefined', async () => {
      blocks.insert.mockResolvedValue(CREATED);
      const style = Object.assign(new BlockStyleDto(), {
        backgroundColor: '#000',
        opacity: undefined,
      });
      await service.create(PROJECT, { description: 'x', style });
      expect(blocks.insert.mock.calls[0][2].style).toEqual({
        ...DEFAULT_BLOCK_STYLE,
        backgroundColor: '#000',
      });
    });

    it('accepts the 500th block of a project', async () => {
      blocks.insert.mockResolvedValue({ ...CREATED, siblings: 500 });
      await expect(service.create(PROJECT, { description: '' })).resolves.toBeDefined();
    });

    it('refuses the 501st with LimitExceededError(500), from inside the write', async () => {
      blocks.insert.mockResolvedValue({ ...CREATED, siblings: 501 });
      await expect(service.create(PROJECT, { description: '' })).rejects.toMatchObject({
        constructor: LimitExceededError,
        limit: 500,
      });
      await expect(writer.write.mock.results[0].value).rejects.toBeInstanceOf(LimitExceededError);
    });

    it('refuses a block that takes the tree past 8 MiB', async () => {
      blocks.insert.mockResolvedValue({ ...CREATED, treeBytes: 8 * MiB + 1 });
      await expect(service.create(PROJECT, { description: '' })).rejects.toMatchObject({
        constructor: LimitExceededError,
        limit: 8 * MiB,
      });
    });

    it('accepts a block up to 8 MiB exactly', async () => {
      blocks.insert.mockResolvedValue({ ...CREATED, treeBytes: 8 * MiB });
      await expect(service.create(PROJECT, { description: '' })).resolves.toBeDefined();
    });
  });

  describe('update', () => {
    const UPDATED = { json: '{"_id":"b1","description":"New"}', siblings: 3, treeBytes: 1100 };

    beforeEach(() => {
      blocks.findForWrite.mockResolvedValue({ ...CURRENT });
      blocks.update.mockResolvedValue(UPDATED);
      blocks.reads.block.document.mockResolvedValue({ revision: 5, json: '{"_id":"b1"}' });
    });

    it('checks If-Match against the tag read under the lock before anything is written', async () => {
      const failure = service.update(BLOCK, { description: 'New', position: 0 }, ifMatch('"r4"'));
      await expect(failure).rejects.toMatchObject({
        constructor: PreconditionFailedError,
        currentTag: '"r5"',
      });
      expect(blocks.findForWrite).toHaveBeenCalledWith(TX, BLOCK);
      expect(keyAt).not.toHaveBeenCalled();
      expect(blocks.update).not.toHaveBeenCalled();
    });

    it('writes when If-Match names the block’s tag (not the project’s)', async () => {
      await expect(
        service.update(BLOCK, { description: 'New' }, ifMatch('"r5"')),
      ).resolves.toBeDefined();
      expect(blocks.update).toHaveBeenCalledTimes(1);
      await expect(
        service.update(BLOCK, { description: 'New' }, ifMatch('"r7"')),
      ).rejects.toBeInstanceOf(PreconditionFailedError);
    });

    it('reads the block under the lock without waiting for the lock’s answer', async () => {
      const lock = pendingLock(writer);
      const answer = service.update(BLOCK, { description: 'New' }, RequestConditions.NONE);
      await settle();
      expect(blocks.findForWrite).toHaveBeenCalledWith(TX, BLOCK);
      lock.resolve(LATE_LOCK);
      await expect(answer).resolves.toMatchObject({
        headers: { etag: '"r13"', projectRevision: 13 },
      });
    });

    it('a missing block is ResourceNotFoundError', async () => {
      blocks.findForWrite.mockResolvedValue(undefined);
      await expectNotFound(service.update(BLOCK, {}, RequestConditions.NONE), 'Block');
    });

    it.each([
      ['an empty body', {}],
      ['the same description', { description: 'Intro' }],
      ['the same whole style', { style: { ...CUSTOM_STYLE } }],
    ])(
      'with %s changes nothing and answers the current document at the current revision',
      async (_name, body) => {
        const answer = await service.update(BLOCK, body, RequestConditions.NONE);
        expect(blocks.update).not.toHaveBeenCalled();
        expect(blocks.reads.block.document).toHaveBeenCalledWith(TX, BLOCK);
        expect(answer.body?.text).toBe('{"_id":"b1"}');
        expect(answer.headers).toEqual({ etag: '"r5"', projectRevision: 7 });
      },
    );

    it('a position where the block already is changes nothing', async () => {
      keyAt.mockResolvedValue(undefined);
      const answer = await service.update(BLOCK, { position: 2 }, RequestConditions.NONE);
      expect(keyAt).toHaveBeenCalledWith(TX, 'block', {
        projectId: 'p1',
        parentId: 'p1',
        position: 2,
        selfId: 'b1',
      });
      expect(blocks.update).not.toHaveBeenCalled();
      expect(answer.headers).toEqual({ etag: '"r5"', projectRevision: 7 });
    });

    it('a change writes at the new revision and answers etag "r8", Project-Revision 8', async () => {
      const answer = await service.update(BLOCK, { description: 'New' }, RequestConditions.NONE);
      expect(blocks.update).toHaveBeenCalledWith(
        TX,
        BLOCK,
        { description: 'New', style: CUSTOM_STYLE },
        { sortKey: null, changed: true },
      );
      expect(answer.body?.text).toBe(UPDATED.json);
      expect(answer.headers).toEqual({ etag: '"r8"', projectRevision: 8 });
    });

    it('a move only keeps the block’s tag and takes a project revision', async () => {
      const answer = await service.update(BLOCK, { position: 0 }, RequestConditions.NONE);
      expect(keyAt.mock.calls[0][2]).toMatchObject({ position: 0, selfId: 'b1' });
      expect(blocks.update).toHaveBeenCalledWith(
        TX,
        BLOCK,
        { description: 'Intro', style: CUSTOM_STYLE },
        { sortKey: '1500', changed: false },
      );
      expect(answer.headers).toEqual({ etag: '"r5"', projectRevision: 8 });
    });

    it('a given style replaces the whole stored style, the members left out taking their defaults', async () => {
      await service.update(BLOCK, { style: { opacity: 0.3 } }, RequestConditions.NONE);
      const written = blocks.update.mock.calls[0][2];
      expect(written.style).toEqual({ ...DEFAULT_BLOCK_STYLE, opacity: 0.3 });
      expect(written.style.backgroundColor).toBe(DEFAULT_BLOCK_STYLE.backgroundColor);
      expect(blocks.update.mock.calls[0][3]).toMatchObject({ changed: true });
    });

    it('an empty style resets the stored style to the defaults', async () => {
      await service.update(BLOCK, { style: {} }, RequestConditions.NONE);
      expect(blocks.update.mock.calls[0][2].style).toEqual(DEFAULT_BLOCK_STYLE);
    });

    it('refuses a change that takes the tree past 8 MiB', async () => {
      blocks.update.mockResolvedValue({ ...UPDATED, treeBytes: 8 * MiB + 1 });
      await expect(
        service.update(BLOCK, { description: 'x' }, RequestConditions.NONE),
      ).rejects.toBeInstanceOf(LimitExceededError);
    });

    it('accepts a change that shrinks a tree above 8 MiB', async () => {
      lockFinds(writer, { treeBytes: 9 * MiB });
      blocks.update.mockResolvedValue({ ...UPDATED, treeBytes: 9 * MiB - 1 });
      await expect(
        service.update(BLOCK, { description: '' }, RequestConditions.NONE),
      ).resolves.toBeDefined();
    });
  });

  describeNodeDelete('Block', BLOCK, () => ({ service, remove: blocks.delete, writer }));
});
