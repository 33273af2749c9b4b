import { jest } from '@jest/globals';
import { BlockStyleDto, DEFAULT_BLOCK_STYLE } from '@layout/contracts';
import { LimitExceededError, PreconditionFailedError } from '../../common/errors';
import { RequestConditions } from '../../common/http/request-conditions';
import { type BlockScope, type ProjectScope } from '../layout.scopes';
import { type BlocksRepository } from '../repositories/blocks.repository';
import { type SiblingOrderRepository } from '../repositories/sibling-order.repository';
import {
  A_NEW_ID,
  BLOCK,
  copiedInto,
  DB,
  describeNodeDelete,
  describeNodeReads,
  duringFirstRound,
  expectNotFound,
  IDEMPOTENT,
  ifMatch,
  LATE_LOCK,
  lockFinds,
  lockFindsNoProject,
  MiB,
  movedInto,
  placedMock,
  PROJECT,
  readsMock,
  reply,
  TX,
  type WriterMock,
  writerMock,
} from '../../../../../test/support/layout-service-fakes';
import { CREATED as CREATED_STATUS } from './answer-once';
import { BlocksService } from './blocks.service';
import { type TreeWriter } from './tree-writer';

const CUSTOM_STYLE = { ...DEFAULT_BLOCK_STYLE, backgroundColor: '#ff0000', opacity: 0.5 };
/** The block as findForWrite reads it under the lock: last changed at revision 5. */
const CURRENT = { revision: 5, description: 'Intro', style: CUSTOM_STYLE };
/** A block's parent, as a move or copy statement reports it: the project. */
const IN_PROJECT = { id: 'p1', rowId: null, blockId: null };

function repositoryMock() {
  return {
    reads: { block: readsMock<BlockScope>(), list: readsMock<ProjectScope>() },
    insert: jest.fn<BlocksRepository['insert']>(),
    findForWrite: jest.fn<BlocksRepository['findForWrite']>(),
    update: jest.fn<BlocksRepository['update']>(),
    delete: jest.fn<BlocksRepository['delete']>(),
    move: jest.fn<BlocksRepository['move']>(),
    copy: jest.fn<BlocksRepository['copy']>(),
  };
}

describe('BlocksService', () => {
  let blocks: ReturnType<typeof repositoryMock>;
  let placed: ReturnType<typeof placedMock>;
  let writer: WriterMock;
  let service: BlocksService;

  beforeEach(() => {
    blocks = repositoryMock();
    placed = placedMock();
    writer = writerMock();
    service = new BlocksService(
      DB,
      writer as unknown as TreeWriter,
      blocks as unknown as BlocksRepository,
      { placed } as unknown as SiblingOrderRepository,
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
      blocks.insert.mockImplementation(() => reply(CREATED));
      const answer = await service.create(PROJECT, { description: 'Intro' });

      expect(writer.write).toHaveBeenCalledWith(
        PROJECT,
        expect.objectContaining({ operation: 'block.create' }),
        expect.any(Function),
        undefined,
      );
      expect(placed).toHaveBeenCalledWith(
        TX,
        'block',
        { projectId: 'p1', parentId: 'p1', position: undefined },
        expect.any(Function),
      );
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

    it('sends its insert in the lock’s round, then answers at the revision the lock reports', async () => {
      blocks.insert.mockImplementation(() => reply(CREATED));
      duringFirstRound(writer, () => expect(blocks.insert).toHaveBeenCalledTimes(1), LATE_LOCK);
      await expect(service.create(PROJECT, { description: 'Intro' })).resolves.toMatchObject({
        headers: { etag: '"r13"', projectRevision: 13 },
      });
    });

    it('asks the place of a position as a new node (selfId null) and inserts there', async () => {
      blocks.insert.mockImplementation(() => reply(CREATED));
      await service.create(PROJECT, { description: '', position: 0 });
      expect(placed).toHaveBeenCalledWith(
        TX,
        'block',
        { projectId: 'p1', parentId: 'p1', position: 0 },
        expect.any(Function),
      );
      expect(blocks.insert.mock.calls[0][3]).toEqual({ sortKey: '1500' });
    });

    it('fills the defaults into a partial style, ignoring members left undefined', async () => {
      blocks.insert.mockImplementation(() => reply(CREATED));
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
      blocks.insert.mockImplementation(() => reply({ ...CREATED, siblings: 500 }));
      await expect(service.create(PROJECT, { description: '' })).resolves.toBeDefined();
    });

    it('refuses the 501st with LimitExceededError(500), from inside the write', async () => {
      blocks.insert.mockImplementation(() => reply({ ...CREATED, siblings: 501 }));
      await expect(service.create(PROJECT, { description: '' })).rejects.toMatchObject({
        constructor: LimitExceededError,
        limit: 500,
      });
      await expect(writer.write.mock.results[0].value).rejects.toBeInstanceOf(LimitExceededError);
    });

    it('refuses a block that takes the tree past 8 MiB', async () => {
      blocks.insert.mockImplementation(() => reply({ ...CREATED, treeBytes: 8 * MiB + 1 }));
      await expect(service.create(PROJECT, { description: '' })).rejects.toMatchObject({
        constructor: LimitExceededError,
        limit: 8 * MiB,
      });
    });

    it('accepts a block up to 8 MiB exactly', async () => {
      blocks.insert.mockImplementation(() => reply({ ...CREATED, treeBytes: 8 * MiB }));
      await expect(service.create(PROJECT, { description: '' })).resolves.toBeDefined();
    });
  });

  describe('update', () => {
    const UPDATED = { json: '{"_id":"b1","description":"New"}', siblings: 3, treeBytes: 1100 };

    beforeEach(() => {
      blocks.findForWrite.mockImplementation(() => reply({ ...CURRENT }));
      blocks.update.mockImplementation(() => reply(UPDATED));
      blocks.reads.block.documentIn.mockImplementation(() =>
        reply({ revision: 5, json: '{"_id":"b1"}' }),
      );
    });

    it('checks If-Match against the tag read under the lock before anything is written', async () => {
      const failure = service.update(BLOCK, { description: 'New', position: 0 }, ifMatch('"r4"'));
      await expect(failure).rejects.toMatchObject({
        constructor: PreconditionFailedError,
        currentTag: '"r5"',
      });
      expect(blocks.findForWrite).toHaveBeenCalledWith(TX, BLOCK);
      expect(placed).not.toHaveBeenCalled();
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

    it('reads the block in the lock’s round, and writes once both have answered', async () => {
      duringFirstRound(
        writer,
        () => {
          expect(blocks.findForWrite).toHaveBeenCalledWith(TX, BLOCK);
          expect(blocks.update).not.toHaveBeenCalled();
        },
        LATE_LOCK,
      );
      await expect(
        service.update(BLOCK, { description: 'New' }, RequestConditions.NONE),
      ).resolves.toMatchObject({ headers: { etag: '"r13"', projectRevision: 13 } });
    });

    it('a missing block is ResourceNotFoundError', async () => {
      blocks.findForWrite.mockImplementation(() => reply(undefined));
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
        expect(blocks.reads.block.documentIn).toHaveBeenCalledWith(TX, BLOCK);
        expect(answer.body?.text).toBe('{"_id":"b1"}');
        expect(answer.headers).toEqual({ etag: '"r5"', projectRevision: 7 });
      },
    );

    it('a position where the block already is changes nothing', async () => {
      // As the slot statement answers for a block that is at that index already: no key.
      placed.mockImplementation((round, _level, _where, then) =>
        round.next((next) => then(null, next)),
      );
      const answer = await service.update(BLOCK, { position: 2 }, RequestConditions.NONE);
      expect(placed).toHaveBeenCalledWith(
        TX,
        'block',
        { projectId: 'p1', parentId: 'p1', position: 2, selfId: 'b1' },
        expect.any(Function),
      );
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

    it('a move only takes a project revision, and the block takes it as its tag', async () => {
      const answer = await service.update(BLOCK, { position: 0 }, RequestConditions.NONE);
      expect(placed.mock.calls[0][2]).toMatchObject({ position: 0, selfId: 'b1' });
      expect(blocks.update).toHaveBeenCalledWith(
        TX,
        BLOCK,
        { description: 'Intro', style: CUSTOM_STYLE },
        { sortKey: '1500', changed: false },
      );
      expect(answer.headers).toEqual({ etag: '"r8"', projectRevision: 8 });
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
      blocks.update.mockImplementation(() => reply({ ...UPDATED, treeBytes: 8 * MiB + 1 }));
      await expect(
        service.update(BLOCK, { description: 'x' }, RequestConditions.NONE),
      ).rejects.toBeInstanceOf(LimitExceededError);
    });

    it('accepts a change that shrinks a tree above 8 MiB', async () => {
      lockFinds(writer, { treeBytes: 9 * MiB });
      blocks.update.mockImplementation(() => reply({ ...UPDATED, treeBytes: 9 * MiB - 1 }));
      await expect(
        service.update(BLOCK, { description: '' }, RequestConditions.NONE),
      ).resolves.toBeDefined();
    });
  });

  describeNodeDelete('Block', BLOCK, () => ({ service, remove: blocks.delete, writer }));

  describe('move', () => {
    /** What the move statement reports: the block's tag r5, moved among the project's blocks. */
    const MOVED = movedInto('b1', IN_PROJECT);

    beforeEach(() => {
      blocks.move.mockImplementation(() => reply(MOVED));
    });

    it('moves to the position among the project’s blocks and answers the block with the move’s revision 8 as its tag and its Location', async () => {
      const answer = await service.move(BLOCK, { position: 2 }, RequestConditions.NONE);
      expect(blocks.move).toHaveBeenCalledWith(TX, BLOCK, { position: 2 });
      // The statement finds its own place: no sibling-order read before it.
      expect(placed).not.toHaveBeenCalled();
      expect(answer.body?.text).toBe(MOVED.json);
      expect(answer.headers).toEqual({
        etag: '"r8"',
        projectRevision: 8,
        location: '/projects/p1/blocks/b1',
      });
    });

    it('sends its move in the lock’s round, then answers at the revision the lock reports', async () => {
      duringFirstRound(writer, () => expect(blocks.move).toHaveBeenCalledTimes(1), LATE_LOCK);
      await expect(
        service.move(BLOCK, { position: 0 }, RequestConditions.NONE),
      ).resolves.toMatchObject({ headers: { etag: '"r13"', projectRevision: 13 } });
    });

    it('a position where the block is already changes nothing and answers the current revision 7', async () => {
      blocks.move.mockImplementation(() =>
        reply({ ...MOVED, moved: false, siblings: undefined, treeBytes: undefined }),
      );
      const answer = await service.move(BLOCK, { position: 1 }, ifMatch('"r5"'));
      expect(blocks.move).toHaveBeenCalledWith(TX, BLOCK, { position: 1 });
      expect(answer.headers).toEqual({
        etag: '"r5"',
        projectRevision: 7,
        location: '/projects/p1/blocks/b1',
      });
    });

    it('a missing block is ResourceNotFoundError, whatever If-Match says', async () => {
      blocks.move.mockImplementation(() => reply(undefined));
      for (const conditions of [RequestConditions.NONE, ifMatch('*'), ifMatch('"r5"')]) {
        await expectNotFound(service.move(BLOCK, { position: 0 }, conditions), 'Block');
      }
    });

    it('fails with the block’s own tag when If-Match names another (the write rolls back)', async () => {
      for (const tag of ['"r4"', '"r7"', '"r8"', 'W/"r5"']) {
        await expect(service.move(BLOCK, { position: 0 }, ifMatch(tag))).rejects.toMatchObject({
          constructor: PreconditionFailedError,
          currentTag: '"r5"',
        });
      }
      for (const { value } of writer.write.mock.results) {
        await expect(value).rejects.toBeInstanceOf(PreconditionFailedError);
      }
      await expect(service.move(BLOCK, { position: 0 }, ifMatch('"r5"'))).resolves.toBeDefined();
    });

    it('checks If-Match before the tree size', async () => {
      blocks.move.mockImplementation(() => reply({ ...MOVED, treeBytes: 9 * MiB }));
      await expect(service.move(BLOCK, { position: 0 }, ifMatch('"r4"'))).rejects.toBeInstanceOf(
        PreconditionFailedError,
      );
    });

    it('refuses a move that takes the tree past 8 MiB, not one that stays at 8 MiB', async () => {
      blocks.move.mockImplementationOnce(() => reply({ ...MOVED, treeBytes: 8 * MiB }));
      await expect(
        service.move(BLOCK, { position: 0 }, RequestConditions.NONE),
      ).resolves.toBeDefined();
      blocks.move.mockImplementationOnce(() => reply({ ...MOVED, treeBytes: 8 * MiB + 1 }));
      await expect(
        service.move(BLOCK, { position: 0 }, RequestConditions.NONE),
      ).rejects.toMatchObject({ constructor: LimitExceededError, limit: 8 * MiB });
    });

    it('checks no limit when the block did not move', async () => {
      blocks.move.mockImplementation(() =>
        reply({ ...MOVED, moved: false, siblings: 501, treeBytes: 9 * MiB + 1 }),
      );
      await expect(
        service.move(BLOCK, { position: 0 }, RequestConditions.NONE),
      ).resolves.toBeDefined();
    });

    it('passes the idempotency request on to the writer, with 200 as the status a replay answers', async () => {
      await service.move(BLOCK, { position: 0 }, RequestConditions.NONE, IDEMPOTENT);
      expect(writer.write).toHaveBeenCalledWith(
        BLOCK,
        expect.objectContaining({ operation: 'block.move' }),
        expect.any(Function),
        IDEMPOTENT,
        200,
      );
    });

    it('another account’s project is ResourceNotFoundError("Project"), before the block’s rules', async () => {
      blocks.move.mockImplementation(() => reply(undefined));
      lockFindsNoProject(writer);
      await expectNotFound(service.move(BLOCK, { position: 0 }, ifMatch('"r1"')), 'Project');
    });
  });

  describe('duplicate', () => {
    const COPIED = copiedInto(IN_PROJECT);
    const COPY_JSON = '{"_id":"the copy"}';
    /** Makes the copy report `copied` and its document `json` (null: none found). */
    const copies = (copied: object | undefined, json: string | null = COPY_JSON) =>
      blocks.copy.mockImplementation(() => ({
        copied: reply(copied as ReturnType<typeof copiedInto> | undefined),
        json: reply(json ?? undefined),
      }));
    /** A report of a copy refused by the statement: nothing made, nothing counted. */
    const REFUSED = { copied: false, siblings: undefined };

    beforeEach(() => {
      copies(COPIED);
    });

    it('copies right after the original with a new id, and answers the copy with etag "r8", revision 8 and its Location', async () => {
      const answer = await service.duplicate(BLOCK, {}, RequestConditions.NONE);
      expect(placed).toHaveBeenCalledWith(
        TX,
        'block',
        { projectId: 'p1', parentId: 'p1', position: undefined, afterId: 'b1' },
        expect.any(Function),
      );
      expect(blocks.copy).toHaveBeenCalledWith(TX, BLOCK, {
        copyId: A_NEW_ID,
        sortKey: '1500',
        maxNodes: 20_000,
        maxTreeBytes: 8 * MiB,
      });
      const { copyId } = blocks.copy.mock.calls[0][2];
      expect(answer.body?.text).toBe(COPY_JSON);
      expect(answer.headers).toEqual({
        etag: '"r8"',
        projectRevision: 8,
        location: `/projects/p1/blocks/${copyId}`,
      });
    });

    it('puts the copy at the position asked', async () => {
      await service.duplicate(BLOCK, { position: 0 }, RequestConditions.NONE);
      expect(placed.mock.calls[0][2]).toEqual({
        projectId: 'p1',
        parentId: 'p1',
        position: 0,
        afterId: 'b1',
      });
      expect(blocks.copy.mock.calls[0][2]).toMatchObject({ sortKey: '1500' });
    });

    it('gives every copy an id of its own', async () => {
      const first = await service.duplicate(BLOCK, {}, RequestConditions.NONE);
      const second = await service.duplicate(BLOCK, {}, RequestConditions.NONE);
      const [one, two] = blocks.copy.mock.calls.map(([, , request]) => request.copyId);
      expect(one).not.toBe(two);
      expect(first.headers.location).toBe(`/projects/p1/blocks/${one}`);
      expect(second.headers.location).toBe(`/projects/p1/blocks/${two}`);
    });

    it('asks its place in the lock’s round and copies in the round after, then answers at the revision the lock reports', async () => {
      duringFirstRound(
        writer,
        () => {
          expect(placed).toHaveBeenCalledTimes(1);
          expect(blocks.copy).not.toHaveBeenCalled();
        },
        LATE_LOCK,
      );
      await expect(service.duplicate(BLOCK, {}, RequestConditions.NONE)).resolves.toMatchObject({
        headers: { etag: '"r13"', projectRevision: 13 },
      });
    });

    it('a missing block is ResourceNotFoundError, whatever If-Match says', async () => {
      copies(undefined, null);
      for (const conditions of [RequestConditions.NONE, ifMatch('*'), ifMatch('"r5"')]) {
        await expectNotFound(service.duplicate(BLOCK, {}, conditions), 'Block');
      }
    });

    it('fails with the original’s tag when If-Match names another (the write rolls back)', async () => {
      for (const tag of ['"r4"', '"r7"', '"r8"', 'W/"r5"']) {
        await expect(service.duplicate(BLOCK, {}, ifMatch(tag))).rejects.toMatchObject({
          constructor: PreconditionFailedError,
          currentTag: '"r5"',
        });
      }
      for (const { value } of writer.write.mock.results) {
        await expect(value).rejects.toBeInstanceOf(PreconditionFailedError);
      }
      await expect(service.duplicate(BLOCK, {}, ifMatch('"r5"'))).resolves.toMatchObject({
        headers: { etag: '"r8"' },
      });
    });

    it('checks If-Match before the limits', async () => {
      copies({ ...COPIED, ...REFUSED, nodes: 20_001, treeAfter: 9 * MiB }, null);
      await expect(service.duplicate(BLOCK, {}, ifMatch('"r4"'))).rejects.toBeInstanceOf(
        PreconditionFailedError,
      );
    });

    it('accepts a copy of 20 000 nodes and refuses one of 20 001 with LimitExceededError(20000)', async () => {
      copies({ ...COPIED, nodes: 20_000 });
      await expect(service.duplicate(BLOCK, {}, RequestConditions.NONE)).resolves.toBeDefined();
      copies({ ...COPIED, ...REFUSED, nodes: 20_001 }, null);
      await expect(service.duplicate(BLOCK, {}, RequestConditions.NONE)).rejects.toMatchObject({
        constructor: LimitExceededError,
        limit: 20_000,
      });
    });

    it('refuses a copy that takes the tree past 8 MiB, not one that stays at 8 MiB', async () => {
      copies({ ...COPIED, treeAfter: 8 * MiB });
      await expect(service.duplicate(BLOCK, {}, RequestConditions.NONE)).resolves.toBeDefined();
      copies({ ...COPIED, ...REFUSED, treeAfter: 8 * MiB + 1 }, null);
      await expect(service.duplicate(BLOCK, {}, RequestConditions.NONE)).rejects.toMatchObject({
        constructor: LimitExceededError,
        limit: 8 * MiB,
      });
    });

    it('accepts the 500th block of a project and refuses the 501st with LimitExceededError(500)', async () => {
      copies({ ...COPIED, siblings: 500 });
      await expect(service.duplicate(BLOCK, {}, RequestConditions.NONE)).resolves.toBeDefined();
      copies({ ...COPIED, siblings: 501 });
      await expect(service.duplicate(BLOCK, {}, RequestConditions.NONE)).rejects.toMatchObject({
        constructor: LimitExceededError,
        limit: 500,
      });
    });

    it('a copy the statement refused under no rule the service knows fails as a defect, not as a client error', async () => {
      copies({ ...COPIED, ...REFUSED }, null);
      await expect(service.duplicate(BLOCK, {}, RequestConditions.NONE)).rejects.toMatchObject({
        constructor: Error,
        message: 'A copy was refused by no rule the service knows',
      });
    });

    it('a copy whose document its round does not find is ResourceNotFoundError("Block")', async () => {
      copies(COPIED, null);
      await expectNotFound(service.duplicate(BLOCK, {}, RequestConditions.NONE), 'Block');
    });

    it('passes the idempotency request on to the writer, the status left to it (a copy answers 201)', async () => {
      await service.duplicate(BLOCK, {}, RequestConditions.NONE, IDEMPOTENT);
      const [scope, change, work, idempotency, status] = writer.write.mock.calls[0];
      expect([scope, change, work, idempotency]).toEqual([
        BLOCK,
        expect.objectContaining({ operation: 'block.duplicate' }),
        expect.any(Function),
        IDEMPOTENT,
      ]);
      expect(status ?? CREATED_STATUS).toBe(201);
    });

    it('another account’s project is ResourceNotFoundError("Project"), before the block’s rules', async () => {
      copies(undefined, null);
      lockFindsNoProject(writer);
      await expectNotFound(service.duplicate(BLOCK, {}, ifMatch('"r1"')), 'Project');
    });
  });
});
