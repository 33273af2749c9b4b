import { jest } from '@jest/globals';
import { type ColumnContentDto, DEFAULT_CONTENT_STYLE } from '@layout/contracts';
import {
  ContentTooLargeError,
  LimitExceededError,
  PreconditionFailedError,
  RequestValidationError,
  RowWidthExceededError,
} from '../../common/errors';
import { RequestConditions } from '../../common/http/request-conditions';
import { ContentComposer } from '../content/content-composer';
import { type ContentRecord } from '../layout.records';
import { type ColumnScope, type RowScope } from '../layout.scopes';
import { type ColumnsRepository } from '../repositories/columns.repository';
import { type SiblingOrderRepository } from '../repositories/sibling-order.repository';
import {
  A_NEW_ID,
  COLUMN,
  copiedInto,
  DB,
  describeNodeDelete,
  describeNodeDuplicate,
  describeNodeMove,
  describeNodeReads,
  duringFirstRound,
  expectNotFound,
  ifMatch,
  LATE_LOCK,
  LOCKED,
  lockFinds,
  MiB,
  movedInto,
  type NodeMoveRules,
  OVERSIZED,
  placedMock,
  readsMock,
  reply,
  ROW,
  runWrite,
  TARGET_ID,
  TX,
  type WriterMock,
  writerMock,
} from '../../../../../test/support/layout-service-fakes';
import { ColumnsService } from './columns.service';
import { type TreeWriter } from './tree-writer';

const TEXT: ContentRecord = {
  id: 'ct1',
  type: 'text',
  style: { ...DEFAULT_CONTENT_STYLE },
  data: { html: '<p>A</p>' },
};
const EMPTY: ContentRecord = {
  id: 'ct2',
  type: 'empty',
  style: { ...DEFAULT_CONTENT_STYLE, opacity: 0.5 },
  data: {},
};
/** The column as findForWrite reads it under the lock: size 4 beside 6, last changed at 5. */
const CURRENT = { revision: 5, size: 4, others: 6, contents: [TEXT, EMPTY] };

/** A `contents` element that sends back a stored content as it was read. */
const echo = (content: ContentRecord): ColumnContentDto => ({
  _id: content.id,
  type: content.type,
  style: { ...content.style },
  data: { ...content.data },
});

function repositoryMock() {
  return {
    reads: { column: readsMock<ColumnScope>(), list: readsMock<RowScope>() },
    insert: jest.fn<ColumnsRepository['insert']>(),
    resize: jest.fn<ColumnsRepository['resize']>(),
    findForWrite: jest.fn<ColumnsRepository['findForWrite']>(),
    replaceContents: jest.fn<ColumnsRepository['replaceContents']>(),
    delete: jest.fn<ColumnsRepository['delete']>(),
    move: jest.fn<ColumnsRepository['move']>(),
    copy: jest.fn<ColumnsRepository['copy']>(),
  };
}

/** A column of size 4, beside 6 in the row it is moved or copied to. */
const WIDTH = { size: 4, others: 6 };

/** A column's moves and copies: within its row r1, or into the row TARGET_ID of block b2. */
const PLACES: NodeMoveRules<ColumnScope> = {
  node: 'Column',
  parent: 'Row',
  level: 'column',
  parentMember: 'rowId',
  scope: COLUMN,
  ownParentId: 'r1',
  nodeId: 'c1',
  scopeUnder: (rowId) => ({ ...COLUMN, rowId }),
  own: { id: 'r1', rowId: null, blockId: 'b1' },
  target: { id: TARGET_ID, rowId: null, blockId: 'b2' },
  pathIn: {
    own: (id) => `/projects/p1/blocks/b1/rows/r1/columns/${id}`,
    target: (id) => `/projects/p1/blocks/b2/rows/${TARGET_ID}/columns/${id}`,
  },
  reported: WIDTH,
  full: { others: 10 },
};

describe('ColumnsService', () => {
  let columns: ReturnType<typeof repositoryMock>;
  let placed: ReturnType<typeof placedMock>;
  let writer: WriterMock;
  let composer: ContentComposer;
  let service: ColumnsService;

  beforeEach(() => {
    columns = repositoryMock();
    placed = placedMock();
    writer = writerMock();
    composer = new ContentComposer();
    service = new ColumnsService(
      DB,
      writer as unknown as TreeWriter,
      columns as unknown as ColumnsRepository,
      { placed } as unknown as SiblingOrderRepository,
      composer,
    );
  });

  afterEach(() => jest.restoreAllMocks());

  describeNodeReads({ node: 'Column', parent: 'Row' }, { node: COLUMN, parent: ROW }, () => ({
    service,
    node: columns.reads.column,
    list: columns.reads.list,
  }));

  describe('create', () => {
    const CREATED = { json: '{"_id":"c9"}', others: 6, siblings: 2, treeBytes: 1100 };
    /** The new column's document, read in its round once its contents are written. */
    const FILLED = { revision: 8, json: '{"_id":"c9","contents":[1]}' };

    /** The id the service made for the new column (the scope it inserted it with). */
    const newColumnId = () => columns.insert.mock.calls[0][1].columnId;

    beforeEach(() => {
      columns.insert.mockImplementation(() => reply(CREATED));
      columns.replaceContents.mockImplementation(() => reply(1300));
      columns.reads.column.documentIn.mockImplementation(() => reply(FILLED));
    });

    it('appends an empty column and answers etag "r8", revision 8 and its Location', async () => {
      const answer = await service.create(ROW, { size: 6 });
      expect(placed).toHaveBeenCalledWith(
        TX,
        'column',
        { projectId: 'p1', parentId: 'r1', position: undefined },
        expect.any(Function),
      );
      expect(columns.insert).toHaveBeenCalledWith(TX, { ...ROW, columnId: A_NEW_ID }, 6, {
        sortKey: null,
      });
      expect(columns.replaceContents).not.toHaveBeenCalled();
      expect(answer.body?.text).toBe(CREATED.json);
      expect(answer.headers).toEqual({
        etag: '"r8"',
        projectRevision: 8,
        location: `/projects/p1/blocks/b1/rows/r1/columns/${newColumnId()}`,
      });
    });

    it('sends its insert, its contents and the read of its document in the lock’s round, then answers at the revision the lock reports', async () => {
      duringFirstRound(
        writer,
        () => {
          expect(columns.insert).toHaveBeenCalledTimes(1);
          expect(columns.replaceContents).toHaveBeenCalledTimes(1);
          expect(columns.reads.column.documentIn).toHaveBeenCalledTimes(1);
        },
        LATE_LOCK,
      );
      await expect(
        service.create(ROW, { size: 6, contents: [{ type: 'empty' }] }),
      ).resolves.toMatchObject({ headers: { etag: '"r13"', projectRevision: 13 } });
    });

    it('inserts at a position as a new node (selfId null)', async () => {
      await service.create(ROW, { size: 1, position: 0 });
      expect(placed.mock.calls[0][2]).toEqual({ projectId: 'p1', parentId: 'r1', position: 0 });
      expect(columns.insert.mock.calls[0][3]).toEqual({ sortKey: '1500' });
    });

    it('checks the width against the other columns the insert reports', async () => {
      columns.insert.mockImplementation(() => reply({ ...CREATED, others: 8 }));
      await expect(service.create(ROW, { size: 4 })).resolves.toBeDefined();
      await expect(service.create(ROW, { size: 5 })).rejects.toMatchObject({
        constructor: RowWidthExceededError,
        availableSize: 4,
        requestedSize: 5,
      });
    });

    it('refuses a column that does not fit, with the contents sent beside it (the write rolls back)', async () => {
      columns.insert.mockImplementation(() => reply({ ...CREATED, others: 12 }));
      await expect(
        service.create(ROW, { size: 1, contents: [{ type: 'empty' }] }),
      ).rejects.toMatchObject({ constructor: RowWidthExceededError, availableSize: 0 });
      await expect(writer.write.mock.results[0].value).rejects.toBeInstanceOf(
        RowWidthExceededError,
      );
    });

    it('a row that is not on the path is ResourceNotFoundError', async () => {
      columns.insert.mockImplementation(() => reply(undefined));
      await expectNotFound(service.create(ROW, { size: 6 }), 'Row');
    });

    it('writes the composed contents into the new column and answers what that reports', async () => {
      const merge = jest.spyOn(composer, 'merge');
      const answer = await service.create(ROW, {
        size: 6,
        contents: [{ type: 'empty' }, { type: 'text', data: { html: '<p>x</p>' } }],
      });
      expect(merge).toHaveBeenCalledTimes(2);
      expect(merge.mock.calls[0][1]).toBeUndefined();
      const created = { ...ROW, columnId: newColumnId() };
      expect(columns.replaceContents).toHaveBeenCalledWith(TX, created, [
        { type: 'empty', style: { ...DEFAULT_CONTENT_STYLE }, data: {} },
        { type: 'text', style: { ...DEFAULT_CONTENT_STYLE }, data: { html: '<p>x</p>' } },
      ]);
      expect(columns.reads.column.documentIn).toHaveBeenCalledWith(TX, created);
      expect(answer.body?.text).toBe(FILLED.json);
      expect(answer.headers).toEqual({
        etag: '"r8"',
        projectRevision: 8,
        location: `/projects/p1/blocks/b1/rows/r1/columns/${created.columnId}`,
      });
    });

    it('accepts 1000 contents', async () => {
      const contents = Array.from({ length: 1000 }, () => ({ type: 'empty' as const }));
      await expect(service.create(ROW, { size: 6, contents })).resolves.toBeDefined();
      expect(columns.replaceContents.mock.calls[0][2]).toHaveLength(1000);
    });

    it('refuses 1001 contents with LimitExceededError(1000) before any database work', async () => {
      const contents = Array.from({ length: 1001 }, () => ({ type: 'empty' as const }));
      await expect(service.create(ROW, { size: 6, contents })).rejects.toMatchObject({
        constructor: LimitExceededError,
        limit: 1000,
      });
      expect(writer.write).not.toHaveBeenCalled();
    });

    it('refuses any _id in a new column’s contents (pointer /contents/<i>/_id), before any database work', async () => {
      await expect(
        service.create(ROW, {
          size: 6,
          contents: [{ type: 'empty' }, { _id: 'ct1', type: 'empty' }],
        }),
      ).rejects.toMatchObject({
        constructor: RequestValidationError,
        errors: [{ pointer: '/contents/1/_id', detail: expect.stringContaining('not the id') }],
      });
      expect(writer.write).not.toHaveBeenCalled();
    });

    it('refuses a content’s data over 256 KiB (pointer /contents/<i>/data), before any database work', async () => {
      await expect(
        service.create(ROW, {
          size: 6,
          contents: [{ type: 'empty' }, { type: 'image', data: OVERSIZED }],
        }),
      ).rejects.toMatchObject({ constructor: ContentTooLargeError, pointer: '/contents/1/data' });
      expect(writer.write).not.toHaveBeenCalled();
    });

    it('refuses a column that takes the tree past 8 MiB (counted after its contents)', async () => {
      columns.replaceContents.mockImplementation(() => reply(8 * MiB + 1));
      await expect(
        service.create(ROW, { size: 6, contents: [{ type: 'empty' }] }),
      ).rejects.toMatchObject({ constructor: LimitExceededError, limit: 8 * MiB });
    });

    it('refuses an empty column that takes the tree past 8 MiB', async () => {
      columns.insert.mockImplementation(() => reply({ ...CREATED, treeBytes: 8 * MiB + 1 }));
      await expect(service.create(ROW, { size: 6 })).rejects.toBeInstanceOf(LimitExceededError);
    });
  });

  describe('update without contents (resize and/or move)', () => {
    const RESIZED = {
      previousRevision: 5,
      revision: 8,
      others: 6,
      changed: true,
      json: '{"_id":"c1","size":"5"}',
      siblings: 2,
      treeBytes: 1001,
    };

    beforeEach(() => {
      columns.resize.mockImplementation(() => reply(RESIZED));
    });

    it('refuses an _id other than the path’s before any database work', async () => {
      await expect(
        service.update(COLUMN, { _id: 'c2', size: 5 }, RequestConditions.NONE),
      ).rejects.toMatchObject({
        constructor: RequestValidationError,
        errors: [{ pointer: '/_id', detail: expect.any(String) }],
      });
      expect(writer.write).not.toHaveBeenCalled();
    });

    it('runs one statement, never reading the column first, and answers etag "r8", revision 8', async () => {
      const answer = await service.update(COLUMN, { _id: 'c1', size: 5 }, ifMatch('"r5"'));
      expect(columns.findForWrite).not.toHaveBeenCalled();
      expect(columns.resize).toHaveBeenCalledWith(TX, COLUMN, 5, { sortKey: null });
      expect(answer.body?.text).toBe(RESIZED.json);
      expect(answer.headers).toEqual({ etag: '"r8"', projectRevision: 8 });
    });

    it('sends the resize in the lock’s round, then answers at the revision the lock reports', async () => {
      duringFirstRound(writer, () => expect(columns.resize).toHaveBeenCalledTimes(1), LATE_LOCK);
      await expect(
        service.update(COLUMN, { size: 5 }, RequestConditions.NONE),
      ).resolves.toMatchObject({ headers: { projectRevision: 13 } });
    });

    it('fails with the column’s previous tag when If-Match names another (the write rolls back)', async () => {
      await expect(service.update(COLUMN, { size: 5 }, ifMatch('"r8"'))).rejects.toMatchObject({
        constructor: PreconditionFailedError,
        currentTag: '"r5"',
      });
      await expect(writer.write.mock.results[0].value).rejects.toBeInstanceOf(
        PreconditionFailedError,
      );
    });

    it('checks If-Match before the width', async () => {
      columns.resize.mockImplementation(() => reply({ ...RESIZED, others: 10 }));
      await expect(service.update(COLUMN, { size: 5 }, ifMatch('"r4"'))).rejects.toBeInstanceOf(
        PreconditionFailedError,
      );
    });

    it('checks the width against the other columns the statement reports', async () => {
      columns.resize.mockImplementation(() => reply({ ...RESIZED, others: 8 }));
      await expect(
        service.update(COLUMN, { size: 5 }, RequestConditions.NONE),
      ).rejects.toMatchObject({ constructor: RowWidthExceededError, availableSize: 4 });
    });

    it('checks the width before the tree size', async () => {
      columns.resize.mockImplementation(() => reply({ ...RESIZED, others: 8, treeBytes: 9 * MiB }));
      await expect(
        service.update(COLUMN, { size: 5 }, RequestConditions.NONE),
      ).rejects.toBeInstanceOf(RowWidthExceededError);
    });

    it('does not check the width of a move without a size', async () => {
      columns.resize.mockImplementation(() => reply({ ...RESIZED, revision: 5, others: 12 }));
      await expect(
        service.update(COLUMN, { position: 0 }, RequestConditions.NONE),
      ).resolves.toBeDefined();
      expect(columns.resize).toHaveBeenCalledWith(TX, COLUMN, null, { sortKey: '1500' });
    });

    it('asks the place of a move with the column itself as selfId', async () => {
      await service.update(COLUMN, { position: 2 }, RequestConditions.NONE);
      expect(placed).toHaveBeenCalledWith(
        TX,
        'column',
        { projectId: 'p1', parentId: 'r1', position: 2, selfId: 'c1' },
        expect.any(Function),
      );
    });

    it('a move only takes a project revision, and answers the tag the statement gave the column', async () => {
      columns.resize.mockImplementation(() => reply({ ...RESIZED, revision: 8, changed: true }));
      const answer = await service.update(COLUMN, { position: 0 }, RequestConditions.NONE);
      expect(answer.headers).toEqual({ etag: '"r8"', projectRevision: 8 });
    });

    it('a request that changes nothing answers the column at the current revision', async () => {
      columns.resize.mockImplementation(() =>
        reply({
          ...RESIZED,
          revision: 5,
          changed: false,
          treeBytes: 1000,
          json: '{"_id":"c1","size":"4"}',
        }),
      );
      const answer = await service.update(COLUMN, { size: 4 }, ifMatch('"r5"'));
      expect(answer.body?.text).toBe('{"_id":"c1","size":"4"}');
      expect(answer.headers).toEqual({ etag: '"r5"', projectRevision: 7 });
    });

    it('a missing column is ResourceNotFoundError', async () => {
      columns.resize.mockImplementation(() => reply(undefined));
      await expectNotFound(service.update(COLUMN, { size: 5 }, RequestConditions.NONE), 'Column');
    });

    it('refuses a resize that takes the tree past 8 MiB', async () => {
      columns.resize.mockImplementation(() => reply({ ...RESIZED, treeBytes: 8 * MiB + 1 }));
      await expect(
        service.update(COLUMN, { size: 5 }, RequestConditions.NONE),
      ).rejects.toMatchObject({ constructor: LimitExceededError, limit: 8 * MiB });
    });

    it('accepts a resize that shrinks a tree the lock found above 8 MiB', async () => {
      lockFinds(writer, { treeBytes: 9 * MiB });
      columns.resize.mockImplementation(() => reply({ ...RESIZED, treeBytes: 9 * MiB - 1 }));
      await expect(
        service.update(COLUMN, { size: 3 }, RequestConditions.NONE),
      ).resolves.toBeDefined();
    });
  });

  describe('update with contents', () => {
    beforeEach(() => {
      // As pg parses them: fresh objects (JSON, not structuredClone, whose objects Jest gives
      // another realm's prototype, which isDeepStrictEqual would tell apart).
      columns.findForWrite.mockImplementation(() =>
        reply({
          ...CURRENT,
          contents: JSON.parse(JSON.stringify(CURRENT.contents)) as ContentRecord[],
        }),
      );
      columns.replaceContents.mockImplementation(() => reply(1200));
      // As the columns.resize statement reports on that column (size 4 beside 6, at revision 5),
      // after any statement before it: its revision moves to the write's only when its size
      // does, a move alone keeps it; the project's size is reported either way.
      columns.resize.mockImplementation((_round, _scope, size, write) => {
        const resized = size !== null && size !== CURRENT.size;
        const changed = resized || write.sortKey !== null;
        return reply({
          previousRevision: 5,
          revision: resized ? 8 : 5,
          others: 6,
          changed,
          json: `{"_id":"c1","size":"${size ?? CURRENT.size}"}`,
          siblings: 2,
          treeBytes: 1000,
        });
      });
    });

    it('reads the column in the lock’s round, and writes once both have answered', async () => {
      duringFirstRound(
        writer,
        () => {
          expect(columns.findForWrite).toHaveBeenCalledWith(TX, COLUMN);
          expect(columns.replaceContents).not.toHaveBeenCalled();
        },
        LATE_LOCK,
      );
      await expect(
        service.update(COLUMN, { contents: [] }, RequestConditions.NONE),
      ).resolves.toMatchObject({ headers: { etag: '"r13"', projectRevision: 13 } });
    });

    it('prepares the contents (sanitising) before the lock, and merges none after a failed If-Match', async () => {
      const prepare = jest.spyOn(composer, 'prepare');
      const merge = jest.spyOn(composer, 'merge');
      writer.write.mockImplementationOnce((_scope, _change, work) => {
        // The elements' own work is done by the time the write locks the project.
        expect(prepare).toHaveBeenCalledTimes(1);
        return runWrite(work, { project: LOCKED });
      });
      await expect(
        service.update(COLUMN, { contents: [{ type: 'empty' }] }, ifMatch('"r4"')),
      ).rejects.toMatchObject({ constructor: PreconditionFailedError, currentTag: '"r5"' });
      expect(columns.findForWrite).toHaveBeenCalledWith(TX, COLUMN);
      expect(merge).not.toHaveBeenCalled();
      expect(columns.resize).not.toHaveBeenCalled();
      expect(columns.replaceContents).not.toHaveBeenCalled();
    });

    it('checks If-Match before the contents are validated', async () => {
      await expect(
        service.update(COLUMN, { contents: [{ _id: 'nope', type: 'empty' }] }, ifMatch('"r4"')),
      ).rejects.toBeInstanceOf(PreconditionFailedError);
    });

    it('a missing column is ResourceNotFoundError', async () => {
      columns.findForWrite.mockImplementation(() => reply(undefined));
      await expectNotFound(
        service.update(COLUMN, { contents: [] }, RequestConditions.NONE),
        'Column',
      );
    });

    it('updates listed contents in place (with their current state), creates the others, in order', async () => {
      const merge = jest.spyOn(composer, 'merge');
      const answer = await service.update(
        COLUMN,
        {
          contents: [
            { type: 'quote' },
            { _id: 'ct2', type: 'empty' },
            { _id: 'ct1', type: 'text', style: { opacity: 0.2 } },
          ],
        },
        ifMatch('"r5"'),
      );
      expect(merge.mock.calls.map(([, current]) => current?.id)).toEqual([undefined, 'ct2', 'ct1']);
      expect(merge.mock.calls[2][1]).toEqual(TEXT);
      expect(columns.replaceContents).toHaveBeenCalledWith(TX, COLUMN, [
        { type: 'quote', style: { ...DEFAULT_CONTENT_STYLE }, data: {} },
        { id: 'ct2', type: 'empty', style: EMPTY.style, data: {} },
        {
          id: 'ct1',
          type: 'text',
          style: { ...DEFAULT_CONTENT_STYLE, opacity: 0.2 },
          data: TEXT.data,
        },
      ]);
      // Its size and place as they are, set behind the contents.
      expect(columns.resize).toHaveBeenCalledWith(TX, COLUMN, null, { sortKey: null });
      expect(answer.body?.text).toBe('{"_id":"c1","size":"4"}');
      expect(answer.headers).toEqual({ etag: '"r8"', projectRevision: 8 });
    });

    it('an empty list deletes every content', async () => {
      await service.update(COLUMN, { contents: [] }, RequestConditions.NONE);
      expect(columns.replaceContents).toHaveBeenCalledWith(TX, COLUMN, []);
      expect(columns.resize).toHaveBeenCalledWith(TX, COLUMN, null, { sortKey: null });
    });

    it('refuses an _id that is not one of the column’s contents (pointer /contents/<i>/_id)', async () => {
      await expect(
        service.update(
          COLUMN,
          { contents: [echo(TEXT), { _id: 'ct-of-another-column', type: 'empty' }] },
          RequestConditions.NONE,
        ),
      ).rejects.toMatchObject({
        constructor: RequestValidationError,
        errors: [{ pointer: '/contents/1/_id', detail: expect.stringContaining('not the id') }],
      });
      expect(columns.replaceContents).not.toHaveBeenCalled();
    });

    it('refuses an _id listed twice (pointer of the second one)', async () => {
      await expect(
        service.update(
          COLUMN,
          { contents: [echo(TEXT), echo(EMPTY), echo(TEXT)] },
          RequestConditions.NONE,
        ),
      ).rejects.toMatchObject({
        constructor: RequestValidationError,
        errors: [{ pointer: '/contents/2/_id', detail: 'is listed twice' }],
      });
      expect(columns.replaceContents).not.toHaveBeenCalled();
    });

    it('refuses a content’s data over 256 KiB (pointer /contents/<i>/data)', async () => {
      await expect(
        service.update(
          COLUMN,
          { contents: [echo(TEXT), { _id: 'ct2', type: 'image', data: OVERSIZED }] },
          RequestConditions.NONE,
        ),
      ).rejects.toMatchObject({ constructor: ContentTooLargeError, pointer: '/contents/1/data' });
      expect(columns.replaceContents).not.toHaveBeenCalled();
    });

    it('accepts 1000 contents and refuses 1001 before any database work', async () => {
      const many = (n: number) => Array.from({ length: n }, () => ({ type: 'empty' as const }));
      await expect(
        service.update(COLUMN, { contents: many(1000) }, RequestConditions.NONE),
      ).resolves.toBeDefined();
      writer.write.mockClear();
      await expect(
        service.update(COLUMN, { contents: many(1001) }, RequestConditions.NONE),
      ).rejects.toMatchObject({ constructor: LimitExceededError, limit: 1000 });
      expect(writer.write).not.toHaveBeenCalled();
    });

    it('checks the width of a new size against the other columns read under the lock', async () => {
      await expect(
        service.update(COLUMN, { size: 7, contents: [] }, RequestConditions.NONE),
      ).rejects.toMatchObject({ constructor: RowWidthExceededError, availableSize: 6 });
      expect(columns.replaceContents).not.toHaveBeenCalled();
      await expect(
        service.update(COLUMN, { size: 6, contents: [] }, RequestConditions.NONE),
      ).resolves.toBeDefined();
      expect(columns.resize).toHaveBeenCalledWith(TX, COLUMN, 6, { sortKey: null });
    });

    it('validates the contents before the width', async () => {
      await expect(
        service.update(
          COLUMN,
          { size: 12, contents: [{ _id: 'nope', type: 'empty' }] },
          RequestConditions.NONE,
        ),
      ).rejects.toBeInstanceOf(RequestValidationError);
    });

    it('moves with the column itself as selfId', async () => {
      await service.update(COLUMN, { contents: [echo(TEXT)], position: 0 }, RequestConditions.NONE);
      expect(placed).toHaveBeenCalledWith(
        TX,
        'column',
        { projectId: 'p1', parentId: 'r1', position: 0, selfId: 'c1' },
        expect.any(Function),
      );
      expect(columns.resize.mock.calls[0][3]).toMatchObject({ sortKey: '1500' });
    });

    it.each([
      ['the contents sent back as read', null, { contents: [echo(TEXT), echo(EMPTY)] }],
      ['the same size', 4, { size: 4, contents: [echo(TEXT), echo(EMPTY)] }],
      [
        'elements that leave out what they keep',
        null,
        {
          contents: [
            { _id: 'ct1', type: 'text' as const },
            { _id: 'ct2', type: 'empty' as const },
          ],
        },
      ],
    ])(
      'with %s writes no contents and answers the column at the current revision (a resize that changes nothing)',
      async (_name, size, body) => {
        const answer = await service.update(COLUMN, body, ifMatch('"r5"'));
        expect(columns.replaceContents).not.toHaveBeenCalled();
        expect(columns.resize).toHaveBeenCalledTimes(1);
        expect(columns.resize).toHaveBeenCalledWith(TX, COLUMN, size, { sortKey: null });
        expect(answer.body?.text).toBe('{"_id":"c1","size":"4"}');
        expect(answer.headers).toEqual({ etag: '"r5"', projectRevision: 7 });
      },
    );

    it('checks If-Match before telling a resize from new contents', async () => {
      await expect(
        service.update(COLUMN, { size: 3, contents: [echo(TEXT), echo(EMPTY)] }, ifMatch('"r4"')),
      ).rejects.toMatchObject({ constructor: PreconditionFailedError, currentTag: '"r5"' });
      expect(columns.resize).not.toHaveBeenCalled();
      expect(columns.replaceContents).not.toHaveBeenCalled();
    });

    it.each([
      ['another order', { contents: [echo(EMPTY), echo(TEXT)] }],
      ['one content fewer', { contents: [echo(TEXT)] }],
      ['one content more', { contents: [echo(TEXT), echo(EMPTY), { type: 'empty' as const }] }],
      ['a changed content', { contents: [echo(TEXT), { ...echo(EMPTY), type: 'quote' as const }] }],
      [
        'a changed content and a new size',
        { size: 3, contents: [echo(TEXT), { ...echo(EMPTY), type: 'quote' as const }] },
      ],
    ])(
      'with %s writes the contents at revision 8, its size and place behind them',
      async (_name, body) => {
        const answer = await service.update(COLUMN, body, RequestConditions.NONE);
        expect(columns.replaceContents).toHaveBeenCalledTimes(1);
        expect(columns.resize).toHaveBeenCalledTimes(1);
        expect(columns.resize).toHaveBeenCalledWith(TX, COLUMN, 'size' in body ? body.size : null, {
          sortKey: null,
        });
        expect(columns.replaceContents.mock.invocationCallOrder[0]).toBeLessThan(
          columns.resize.mock.invocationCallOrder[0],
        );
        expect(answer.headers).toEqual({ etag: '"r8"', projectRevision: 8 });
      },
    );

    it('a new size with the contents as they are is a resize, so the contents list’s tag does not move', async () => {
      const answer = await service.update(
        COLUMN,
        { size: 3, contents: [echo(TEXT), echo(EMPTY)] },
        ifMatch('"r5"'),
      );
      expect(columns.replaceContents).not.toHaveBeenCalled();
      expect(columns.resize).toHaveBeenCalledTimes(1);
      expect(columns.resize).toHaveBeenCalledWith(TX, COLUMN, 3, { sortKey: null });
      expect(answer.body?.text).toBe('{"_id":"c1","size":"3"}');
      expect(answer.headers).toEqual({ etag: '"r8"', projectRevision: 8 });
    });

    it('a new size with the contents as they are is checked against the width the resize reports', async () => {
      await expect(
        service.update(
          COLUMN,
          { size: 7, contents: [echo(TEXT), echo(EMPTY)] },
          RequestConditions.NONE,
        ),
      ).rejects.toMatchObject({ constructor: RowWidthExceededError, availableSize: 6 });
      expect(columns.replaceContents).not.toHaveBeenCalled();
    });

    // The column's representation ({_id, size, contents}) does not hold its place: a move alone
    // keeps the column's tag, through either path.
    it('a move only, with the contents sent back as read, only resizes (moves) the column', async () => {
      const answer = await service.update(
        COLUMN,
        { contents: [echo(TEXT), echo(EMPTY)], position: 0 },
        RequestConditions.NONE,
      );
      expect(columns.replaceContents).not.toHaveBeenCalled();
      expect(columns.resize).toHaveBeenCalledWith(TX, COLUMN, null, { sortKey: '1500' });
      expect(placed).toHaveBeenCalledWith(
        TX,
        'column',
        { projectId: 'p1', parentId: 'r1', position: 0, selfId: 'c1' },
        expect.any(Function),
      );
      expect(answer.headers).toEqual({ etag: '"r5"', projectRevision: 8 });
    });

    it('refuses new contents that take the tree past 8 MiB (as the statement behind them reports it)', async () => {
      columns.resize.mockImplementation(() =>
        reply({
          previousRevision: 5,
          revision: 5,
          others: 6,
          changed: false,
          json: '{"_id":"c1"}',
          siblings: 2,
          treeBytes: 8 * MiB + 1,
        }),
      );
      await expect(
        service.update(COLUMN, { contents: [] }, RequestConditions.NONE),
      ).rejects.toMatchObject({ constructor: LimitExceededError, limit: 8 * MiB });
    });

    it('accepts new contents that shrink a tree above 8 MiB', async () => {
      lockFinds(writer, { treeBytes: 9 * MiB });
      columns.resize.mockImplementation(() =>
        reply({
          previousRevision: 5,
          revision: 5,
          others: 6,
          changed: false,
          json: '{"_id":"c1"}',
          siblings: 2,
          treeBytes: 9 * MiB - 100,
        }),
      );
      await expect(
        service.update(COLUMN, { contents: [] }, RequestConditions.NONE),
      ).resolves.toBeDefined();
    });
  });

  describeNodeDelete('Column', COLUMN, () => ({ service, remove: columns.delete, writer }));

  describeNodeMove(
    PLACES,
    () => ({ service, move: columns.move, placed, writer }),
    () => {
      const moved = movedInto('c1', PLACES.target, WIDTH);
      const body = { rowId: TARGET_ID };

      it('refuses a move into a row without room for the column’s size with RowWidthExceededError(availableSize), not one that fills it', async () => {
        columns.move.mockImplementationOnce(() => reply({ ...moved, others: 8 }));
        await expect(service.move(COLUMN, body, RequestConditions.NONE)).resolves.toBeDefined();
        columns.move.mockImplementationOnce(() => reply({ ...moved, others: 9 }));
        await expect(service.move(COLUMN, body, RequestConditions.NONE)).rejects.toMatchObject({
          constructor: RowWidthExceededError,
          availableSize: 3,
          requestedSize: 4,
        });
      });

      it('checks the width before the tree size', async () => {
        columns.move.mockImplementation(() => reply({ ...moved, others: 9, treeBytes: 9 * MiB }));
        await expect(service.move(COLUMN, body, RequestConditions.NONE)).rejects.toBeInstanceOf(
          RowWidthExceededError,
        );
      });
    },
  );

  describeNodeDuplicate(
    PLACES,
    () => ({ service, copy: columns.copy, placed, writer }),
    () => {
      it('a copy that does not fit its row is RowWidthExceededError(availableSize), not one that fills it', async () => {
        const copied = copiedInto(PLACES.target, WIDTH);
        const body = { rowId: TARGET_ID };
        columns.copy.mockImplementationOnce(() => ({
          copied: reply({ ...copied, others: 8 }),
          json: reply('{}'),
        }));
        await expect(
          service.duplicate(COLUMN, body, RequestConditions.NONE),
        ).resolves.toBeDefined();
        // The statement copies nothing then; the service says why.
        columns.copy.mockImplementationOnce(() => ({
          copied: reply({ ...copied, others: 9, copied: false, siblings: undefined }),
          json: reply(undefined),
        }));
        await expect(service.duplicate(COLUMN, body, RequestConditions.NONE)).rejects.toMatchObject(
          { constructor: RowWidthExceededError, availableSize: 3, requestedSize: 4 },
        );
      });
    },
  );
});
