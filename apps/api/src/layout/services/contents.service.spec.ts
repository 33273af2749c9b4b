import { jest } from '@jest/globals';
import { DEFAULT_CONTENT_STYLE } from '@layout/contracts';
import {
  ContentTooLargeError,
  LimitExceededError,
  PreconditionFailedError,
  RequestValidationError,
} from '../../common/errors';
import { RequestConditions } from '../../common/http/request-conditions';
import { ContentComposer } from '../content/content-composer';
import { type ContentRecord } from '../layout.records';
import { type ColumnScope, type ContentScope } from '../layout.scopes';
import { type ContentsRepository } from '../repositories/contents.repository';
import { type SiblingOrderRepository } from '../repositories/sibling-order.repository';
import {
  COLUMN,
  CONTENT,
  copiedInto,
  DB,
  describeNodeDelete,
  describeNodeDuplicate,
  describeNodeMove,
  describeNodeReads,
  expectNotFound,
  ifMatch,
  LATE_LOCK,
  lockFinds,
  MiB,
  movedInto,
  type NodeMoveRules,
  OVERSIZED,
  duringFirstRound,
  readsMock,
  TX,
  placedMock,
  reply,
  LOCKED,
  runWrite,
  TARGET_ID,
  type WriterMock,
  writerMock,
} from '../../../../../test/support/layout-service-fakes';
import { ContentsService } from './contents.service';
import { type TreeWriter } from './tree-writer';

/** The content as findForWrite reads it under the lock: last changed at revision 5. */
const CURRENT: ContentRecord & { revision: number } = {
  id: 'ct1',
  revision: 5,
  type: 'text',
  style: { ...DEFAULT_CONTENT_STYLE, opacity: 0.5 },
  data: { html: '<p>Hello</p>' },
};

function repositoryMock() {
  return {
    reads: { content: readsMock<ContentScope>(), list: readsMock<ColumnScope>() },
    insert: jest.fn<ContentsRepository['insert']>(),
    findForWrite: jest.fn<ContentsRepository['findForWrite']>(),
    update: jest.fn<ContentsRepository['update']>(),
    delete: jest.fn<ContentsRepository['delete']>(),
    move: jest.fn<ContentsRepository['move']>(),
    copy: jest.fn<ContentsRepository['copy']>(),
  };
}

/** A content's moves and copies: within its column c1, or into the column TARGET_ID of row r2. */
const PLACES: NodeMoveRules<ContentScope> = {
  node: 'Content',
  parent: 'Column',
  level: 'content',
  parentMember: 'columnId',
  scope: CONTENT,
  ownParentId: 'c1',
  nodeId: 'ct1',
  scopeUnder: (columnId) => ({ ...CONTENT, columnId }),
  own: { id: 'c1', rowId: 'r1', blockId: 'b1' },
  target: { id: TARGET_ID, rowId: 'r2', blockId: 'b2' },
  pathIn: {
    own: (id) => `/projects/p1/blocks/b1/rows/r1/columns/c1/contents/${id}`,
    target: (id) => `/projects/p1/blocks/b2/rows/r2/columns/${TARGET_ID}/contents/${id}`,
  },
  full: { siblings: 1001 },
};

describe('ContentsService', () => {
  let contents: ReturnType<typeof repositoryMock>;
  let placed: ReturnType<typeof placedMock>;
  let writer: WriterMock;
  let composer: ContentComposer;
  let service: ContentsService;

  beforeEach(() => {
    contents = repositoryMock();
    placed = placedMock();
    writer = writerMock();
    composer = new ContentComposer();
    service = new ContentsService(
      DB,
      writer as unknown as TreeWriter,
      contents as unknown as ContentsRepository,
      { placed } as unknown as SiblingOrderRepository,
      composer,
    );
  });

  afterEach(() => jest.restoreAllMocks());

  describeNodeReads(
    { node: 'Content', parent: 'Column' },
    { node: CONTENT, parent: COLUMN },
    () => ({ service, node: contents.reads.content, list: contents.reads.list }),
  );

  describe('create', () => {
    const CREATED = { id: 'ct9', json: '{"_id":"ct9"}', siblings: 2, treeBytes: 1200 };

    it('composes the body, appends it and answers etag "r8", revision 8 and Location', async () => {
      contents.insert.mockImplementation(() => reply(CREATED));
      const compose = jest.spyOn(composer, 'compose');
      const answer = await service.create(COLUMN, { type: 'empty' });
      expect(compose).toHaveBeenCalledWith({ type: 'empty' });
      expect(placed).toHaveBeenCalledWith(
        TX,
        'content',
        { projectId: 'p1', parentId: 'c1', position: undefined },
        expect.any(Function),
      );
      expect(contents.insert).toHaveBeenCalledWith(
        TX,
        COLUMN,
        { type: 'empty', style: { ...DEFAULT_CONTENT_STYLE }, data: {} },
        { sortKey: null },
      );
      expect(answer.body?.text).toBe(CREATED.json);
      expect(answer.headers).toEqual({
        etag: '"r8"',
        projectRevision: 8,
        location: '/projects/p1/blocks/b1/rows/r1/columns/c1/contents/ct9',
      });
    });

    it('sends its insert in the lock’s round, then answers at the revision the lock reports', async () => {
      contents.insert.mockImplementation(() => reply(CREATED));
      duringFirstRound(writer, () => expect(contents.insert).toHaveBeenCalledTimes(1), LATE_LOCK);
      await expect(service.create(COLUMN, { type: 'empty' })).resolves.toMatchObject({
        headers: { etag: '"r13"', projectRevision: 13 },
      });
    });

    it('inserts at a position as a new node (selfId null)', async () => {
      contents.insert.mockImplementation(() => reply(CREATED));
      await service.create(COLUMN, { type: 'empty', position: 3 });
      expect(placed.mock.calls[0][2]).toEqual({ projectId: 'p1', parentId: 'c1', position: 3 });
      expect(contents.insert.mock.calls[0][3]).toEqual({ sortKey: '1500' });
    });

    it('refuses data over 256 KiB with ContentTooLargeError before any database work', async () => {
      await expect(
        service.create(COLUMN, { type: 'image', data: OVERSIZED }),
      ).rejects.toMatchObject({ constructor: ContentTooLargeError, pointer: '/data' });
      expect(writer.write).not.toHaveBeenCalled();
      expect(contents.insert).not.toHaveBeenCalled();
    });

    it('a column that is not on the path is ResourceNotFoundError', async () => {
      contents.insert.mockImplementation(() => reply(undefined));
      await expectNotFound(service.create(COLUMN, { type: 'empty' }), 'Column');
    });

    it('accepts the 1000th content and refuses the 1001st with LimitExceededError(1000)', async () => {
      contents.insert.mockImplementationOnce(() => reply({ ...CREATED, siblings: 1000 }));
      await expect(service.create(COLUMN, { type: 'empty' })).resolves.toBeDefined();
      contents.insert.mockImplementationOnce(() => reply({ ...CREATED, siblings: 1001 }));
      await expect(service.create(COLUMN, { type: 'empty' })).rejects.toMatchObject({
        constructor: LimitExceededError,
        limit: 1000,
      });
    });

    it('refuses a content that takes the tree past 8 MiB, not one that stays at 8 MiB', async () => {
      contents.insert.mockImplementationOnce(() => reply({ ...CREATED, treeBytes: 8 * MiB }));
      await expect(service.create(COLUMN, { type: 'empty' })).resolves.toBeDefined();
      contents.insert.mockImplementationOnce(() => reply({ ...CREATED, treeBytes: 8 * MiB + 1 }));
      await expect(service.create(COLUMN, { type: 'empty' })).rejects.toMatchObject({
        constructor: LimitExceededError,
        limit: 8 * MiB,
      });
    });
  });

  describe('update', () => {
    const UPDATED = { json: '{"_id":"ct1","type":"text"}', siblings: 2, treeBytes: 1050 };

    beforeEach(() => {
      contents.findForWrite.mockImplementation(() => reply({ ...CURRENT }));
      contents.update.mockImplementation(() => reply(UPDATED));
      contents.reads.content.documentIn.mockImplementation(() =>
        reply({ revision: 5, json: '{"_id":"ct1"}' }),
      );
    });

    it('refuses an _id other than the path’s before any database work', async () => {
      await expect(
        service.update(CONTENT, { _id: 'other', type: 'text' }, RequestConditions.NONE),
      ).rejects.toMatchObject({
        constructor: RequestValidationError,
        errors: [{ pointer: '/_id', detail: expect.any(String) }],
      });
      expect(writer.write).not.toHaveBeenCalled();
    });

    it('accepts the path’s own _id', async () => {
      await expect(
        service.update(CONTENT, { _id: 'ct1', type: 'text' }, RequestConditions.NONE),
      ).resolves.toBeDefined();
    });

    it('checks If-Match against the content’s tag read under the lock, before any write', async () => {
      const compose = jest.spyOn(composer, 'compose');
      await expect(
        service.update(CONTENT, { type: 'quote', position: 0 }, ifMatch('"r4"')),
      ).rejects.toMatchObject({ constructor: PreconditionFailedError, currentTag: '"r5"' });
      expect(contents.findForWrite).toHaveBeenCalledWith(TX, CONTENT);
      expect(compose).not.toHaveBeenCalled();
      expect(placed).not.toHaveBeenCalled();
      expect(contents.update).not.toHaveBeenCalled();
    });

    it('reads the content in the lock’s round, and writes once both have answered', async () => {
      duringFirstRound(
        writer,
        () => {
          expect(contents.findForWrite).toHaveBeenCalledWith(TX, CONTENT);
          expect(contents.update).not.toHaveBeenCalled();
        },
        LATE_LOCK,
      );
      await expect(
        service.update(CONTENT, { type: 'quote' }, RequestConditions.NONE),
      ).resolves.toMatchObject({ headers: { etag: '"r13"', projectRevision: 13 } });
    });

    it('a missing content is ResourceNotFoundError', async () => {
      contents.findForWrite.mockImplementation(() => reply(undefined));
      await expectNotFound(
        service.update(CONTENT, { type: 'text' }, RequestConditions.NONE),
        'Content',
      );
    });

    it('prepares the body before the lock and merges it with the current content under it', async () => {
      const prepare = jest.spyOn(composer, 'prepare');
      const merge = jest.spyOn(composer, 'merge');
      writer.write.mockImplementationOnce((_scope, _change, work) => {
        // Sanitising (the costly part) is done by the time the write locks the project.
        expect(prepare).toHaveBeenCalledTimes(1);
        expect(merge).not.toHaveBeenCalled();
        return runWrite(work, { project: LOCKED });
      });
      const body = { type: 'text' as const, style: { opacity: 1 } };
      await service.update(CONTENT, body, RequestConditions.NONE);
      expect(prepare).toHaveBeenCalledWith(body);
      expect(merge).toHaveBeenCalledWith(
        prepare.mock.results[0].value,
        expect.objectContaining(CURRENT),
      );
    });

    it.each([
      ['only the same type', { type: 'text' as const }],
      [
        'the same type, style and data',
        {
          type: 'text' as const,
          style: { ...DEFAULT_CONTENT_STYLE, opacity: 0.5 },
          data: { html: '<p>Hello</p>' },
        },
      ],
    ])(
      'with %s writes nothing and answers the current content at revision 7',
      async (_name, body) => {
        const answer = await service.update(CONTENT, body, ifMatch('"r5"'));
        expect(contents.update).not.toHaveBeenCalled();
        expect(contents.reads.content.documentIn).toHaveBeenCalledWith(TX, CONTENT);
        expect(answer.body?.text).toBe('{"_id":"ct1"}');
        expect(answer.headers).toEqual({ etag: '"r5"', projectRevision: 7 });
      },
    );

    it('a change writes what the composer made at revision 8 and answers etag "r8"', async () => {
      const answer = await service.update(
        CONTENT,
        { type: 'text', data: { html: '<p>Bye</p>' } },
        RequestConditions.NONE,
      );
      expect(contents.update).toHaveBeenCalledWith(
        TX,
        CONTENT,
        { type: 'text', style: CURRENT.style, data: { html: '<p>Bye</p>' } },
        { sortKey: null, changed: true },
      );
      expect(answer.body?.text).toBe(UPDATED.json);
      expect(answer.headers).toEqual({ etag: '"r8"', projectRevision: 8 });
    });

    it('a new type without data resets data to {} (the composer’s rule)', async () => {
      await service.update(CONTENT, { type: 'image' }, RequestConditions.NONE);
      expect(contents.update.mock.calls[0][2]).toEqual({
        type: 'image',
        style: CURRENT.style,
        data: {},
      });
    });

    it('a style given replaces the stored one, with the defaults filled in', async () => {
      await service.update(
        CONTENT,
        { type: 'text', style: { backgroundSize: 'contain' } },
        RequestConditions.NONE,
      );
      expect(contents.update.mock.calls[0][2].style).toEqual({
        ...DEFAULT_CONTENT_STYLE,
        backgroundSize: 'contain',
      });
    });

    it('a move only writes with changed false, and the content takes the revision as its tag', async () => {
      const answer = await service.update(
        CONTENT,
        { type: 'text', position: 0 },
        RequestConditions.NONE,
      );
      expect(placed).toHaveBeenCalledWith(
        TX,
        'content',
        { projectId: 'p1', parentId: 'c1', position: 0, selfId: 'ct1' },
        expect.any(Function),
      );
      expect(contents.update).toHaveBeenCalledWith(
        TX,
        CONTENT,
        { type: 'text', style: CURRENT.style, data: CURRENT.data },
        { sortKey: '1500', changed: false },
      );
      expect(answer.headers).toEqual({ etag: '"r8"', projectRevision: 8 });
    });

    it('refuses data over 256 KiB with ContentTooLargeError and writes nothing', async () => {
      await expect(
        service.update(CONTENT, { type: 'image', data: OVERSIZED }, RequestConditions.NONE),
      ).rejects.toMatchObject({ constructor: ContentTooLargeError, pointer: '/data' });
      expect(contents.update).not.toHaveBeenCalled();
    });

    it('refuses a change that takes the tree past 8 MiB', async () => {
      contents.update.mockImplementation(() => reply({ ...UPDATED, treeBytes: 8 * MiB + 1 }));
      await expect(
        service.update(CONTENT, { type: 'empty' }, RequestConditions.NONE),
      ).rejects.toBeInstanceOf(LimitExceededError);
    });

    it('accepts a change that shrinks a tree the lock found above 8 MiB', async () => {
      lockFinds(writer, { treeBytes: 9 * MiB });
      contents.update.mockImplementation(() => reply({ ...UPDATED, treeBytes: 9 * MiB - 1 }));
      await expect(
        service.update(CONTENT, { type: 'empty' }, RequestConditions.NONE),
      ).resolves.toBeDefined();
    });
  });

  describeNodeDelete('Content', CONTENT, () => ({ service, remove: contents.delete, writer }));

  describeNodeMove(
    PLACES,
    () => ({ service, move: contents.move, placed, writer }),
    () => {
      it('accepts the 1000th content of the target column and refuses the 1001st with LimitExceededError(1000)', async () => {
        const moved = movedInto('ct1', PLACES.target);
        const body = { columnId: TARGET_ID };
        contents.move.mockImplementationOnce(() => reply({ ...moved, siblings: 1000 }));
        await expect(service.move(CONTENT, body, RequestConditions.NONE)).resolves.toBeDefined();
        contents.move.mockImplementationOnce(() => reply({ ...moved, siblings: 1001 }));
        await expect(service.move(CONTENT, body, RequestConditions.NONE)).rejects.toMatchObject({
          constructor: LimitExceededError,
          limit: 1000,
        });
      });
    },
  );

  describeNodeDuplicate(
    PLACES,
    () => ({ service, copy: contents.copy, placed, writer }),
    () => {
      it('accepts the 1000th content of the target column and refuses the 1001st with LimitExceededError(1000)', async () => {
        const copied = copiedInto(PLACES.target);
        const body = { columnId: TARGET_ID };
        contents.copy.mockImplementationOnce(() => ({
          copied: reply({ ...copied, siblings: 1000 }),
          json: reply('{}'),
        }));
        await expect(
          service.duplicate(CONTENT, body, RequestConditions.NONE),
        ).resolves.toBeDefined();
        contents.copy.mockImplementationOnce(() => ({
          copied: reply({ ...copied, siblings: 1001 }),
          json: reply('{}'),
        }));
        await expect(
          service.duplicate(CONTENT, body, RequestConditions.NONE),
        ).rejects.toMatchObject({ constructor: LimitExceededError, limit: 1000 });
      });
    },
  );
});
