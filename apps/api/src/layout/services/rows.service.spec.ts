import { jest } from '@jest/globals';
import { LimitExceededError, PreconditionFailedError } from '../../common/errors';
import { RequestConditions } from '../../common/http/request-conditions';
import { type BlockScope, type RowScope } from '../layout.scopes';
import { type RowsRepository } from '../repositories/rows.repository';
import { type SiblingOrderRepository } from '../repositories/sibling-order.repository';
import {
  BLOCK,
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
  lockFinds,
  MiB,
  movedInto,
  type NodeMoveRules,
  placedMock,
  readsMock,
  reply,
  ROW,
  TARGET_ID,
  TX,
  type WriterMock,
  writerMock,
} from '../../../../../test/support/layout-service-fakes';
import { RowsService } from './rows.service';
import { type TreeWriter } from './tree-writer';

function repositoryMock() {
  return {
    reads: { row: readsMock<RowScope>(), list: readsMock<BlockScope>() },
    insert: jest.fn<RowsRepository['insert']>(),
    findForWrite: jest.fn<RowsRepository['findForWrite']>(),
    update: jest.fn<RowsRepository['update']>(),
    delete: jest.fn<RowsRepository['delete']>(),
    move: jest.fn<RowsRepository['move']>(),
    copy: jest.fn<RowsRepository['copy']>(),
  };
}

/** A row's moves and copies: within its block b1, or into the block TARGET_ID. */
const PLACES: NodeMoveRules<RowScope> = {
  node: 'Row',
  parent: 'Block',
  level: 'row',
  parentMember: 'blockId',
  scope: ROW,
  ownParentId: 'b1',
  nodeId: 'r1',
  scopeUnder: (blockId) => ({ ...ROW, blockId }),
  own: { id: 'b1', rowId: null, blockId: null },
  target: { id: TARGET_ID, rowId: null, blockId: null },
  pathIn: {
    own: (id) => `/projects/p1/blocks/b1/rows/${id}`,
    target: (id) => `/projects/p1/blocks/${TARGET_ID}/rows/${id}`,
  },
  full: { siblings: 501 },
};

describe('RowsService', () => {
  let rows: ReturnType<typeof repositoryMock>;
  let placed: ReturnType<typeof placedMock>;
  let writer: WriterMock;
  let service: RowsService;

  beforeEach(() => {
    rows = repositoryMock();
    placed = placedMock();
    writer = writerMock();
    service = new RowsService(
      DB,
      writer as unknown as TreeWriter,
      rows as unknown as RowsRepository,
      { placed } as unknown as SiblingOrderRepository,
    );
  });

  describeNodeReads({ node: 'Row', parent: 'Block' }, { node: ROW, parent: BLOCK }, () => ({
    service,
    node: rows.reads.row,
    list: rows.reads.list,
  }));

  describe('create', () => {
    const CREATED = { id: 'r9', json: '{"_id":"r9"}', siblings: 2, treeBytes: 1100 };

    it('appends an empty description and answers the row with etag "r8", revision 8 and Location', async () => {
      rows.insert.mockImplementation(() => reply(CREATED));
      const answer = await service.create(BLOCK, {});
      expect(placed).toHaveBeenCalledWith(
        TX,
        'row',
        { projectId: 'p1', parentId: 'b1', position: undefined },
        expect.any(Function),
      );
      expect(rows.insert).toHaveBeenCalledWith(TX, BLOCK, { description: '' }, { sortKey: null });
      expect(answer.body?.text).toBe(CREATED.json);
      expect(answer.headers).toEqual({
        etag: '"r8"',
        projectRevision: 8,
        location: '/projects/p1/blocks/b1/rows/r9',
      });
    });

    it('sends its insert in the lock’s round, then answers at the revision the lock reports', async () => {
      rows.insert.mockImplementation(() => reply(CREATED));
      duringFirstRound(writer, () => expect(rows.insert).toHaveBeenCalledTimes(1), LATE_LOCK);
      await expect(service.create(BLOCK, {})).resolves.toMatchObject({
        headers: { etag: '"r13"', projectRevision: 13 },
      });
    });

    it('inserts at a position as a new node (selfId null)', async () => {
      rows.insert.mockImplementation(() => reply(CREATED));
      await service.create(BLOCK, { description: 'Top', position: 0 });
      expect(placed.mock.calls[0][2]).toEqual({ projectId: 'p1', parentId: 'b1', position: 0 });
      expect(rows.insert.mock.calls[0][3]).toEqual({ sortKey: '1500' });
    });

    it('a block that is not on the path is ResourceNotFoundError', async () => {
      rows.insert.mockImplementation(() => reply(undefined));
      await expectNotFound(service.create(BLOCK, {}), 'Block');
    });

    it('accepts the 500th row and refuses the 501st with LimitExceededError(500)', async () => {
      rows.insert.mockImplementationOnce(() => reply({ ...CREATED, siblings: 500 }));
      await expect(service.create(BLOCK, {})).resolves.toBeDefined();
      rows.insert.mockImplementationOnce(() => reply({ ...CREATED, siblings: 501 }));
      await expect(service.create(BLOCK, {})).rejects.toMatchObject({
        constructor: LimitExceededError,
        limit: 500,
      });
    });

    it('refuses a row that takes the tree past 8 MiB', async () => {
      rows.insert.mockImplementation(() => reply({ ...CREATED, treeBytes: 8 * MiB + 1 }));
      await expect(service.create(BLOCK, {})).rejects.toMatchObject({
        constructor: LimitExceededError,
        limit: 8 * MiB,
      });
    });
  });

  describe('update', () => {
    const UPDATED = { json: '{"_id":"r1","description":"New"}', siblings: 2, treeBytes: 1010 };

    beforeEach(() => {
      rows.findForWrite.mockImplementation(() => reply({ revision: 4, description: 'Old' }));
      rows.update.mockImplementation(() => reply(UPDATED));
      rows.reads.row.documentIn.mockImplementation(() =>
        reply({ revision: 4, json: '{"_id":"r1"}' }),
      );
    });

    it('checks If-Match against the row’s tag read under the lock, before any write', async () => {
      await expect(
        service.update(ROW, { description: 'New', position: 1 }, ifMatch('"r3"')),
      ).rejects.toMatchObject({ constructor: PreconditionFailedError, currentTag: '"r4"' });
      expect(rows.findForWrite).toHaveBeenCalledWith(TX, ROW);
      expect(placed).not.toHaveBeenCalled();
      expect(rows.update).not.toHaveBeenCalled();
    });

    it('reads the row in the lock’s round, and writes once both have answered', async () => {
      duringFirstRound(
        writer,
        () => {
          expect(rows.findForWrite).toHaveBeenCalledWith(TX, ROW);
          expect(rows.update).not.toHaveBeenCalled();
        },
        LATE_LOCK,
      );
      await expect(
        service.update(ROW, { description: 'New' }, RequestConditions.NONE),
      ).resolves.toMatchObject({ headers: { etag: '"r13"', projectRevision: 13 } });
    });

    it('a missing row is ResourceNotFoundError', async () => {
      rows.findForWrite.mockImplementation(() => reply(undefined));
      await expectNotFound(service.update(ROW, {}, RequestConditions.NONE), 'Row');
    });

    it.each([
      ['an empty body', {}],
      ['the same description', { description: 'Old' }],
    ])('with %s writes nothing and answers the current row at revision 7', async (_name, body) => {
      const answer = await service.update(ROW, body, ifMatch('"r4"'));
      expect(rows.update).not.toHaveBeenCalled();
      expect(rows.reads.row.documentIn).toHaveBeenCalledWith(TX, ROW);
      expect(answer.body?.text).toBe('{"_id":"r1"}');
      expect(answer.headers).toEqual({ etag: '"r4"', projectRevision: 7 });
    });

    it('a new description writes at revision 8 and answers etag "r8"', async () => {
      const answer = await service.update(ROW, { description: 'New' }, RequestConditions.NONE);
      expect(rows.update).toHaveBeenCalledWith(
        TX,
        ROW,
        { description: 'New' },
        { sortKey: null, changed: true },
      );
      expect(answer.body?.text).toBe(UPDATED.json);
      expect(answer.headers).toEqual({ etag: '"r8"', projectRevision: 8 });
    });

    it('an empty description is a change, not "left out"', async () => {
      await service.update(ROW, { description: '' }, RequestConditions.NONE);
      expect(rows.update.mock.calls[0][2]).toEqual({ description: '' });
    });

    it('a move only writes with changed false, and the row takes the revision as its tag', async () => {
      const answer = await service.update(ROW, { position: 0 }, RequestConditions.NONE);
      expect(placed).toHaveBeenCalledWith(
        TX,
        'row',
        { projectId: 'p1', parentId: 'b1', position: 0, selfId: 'r1' },
        expect.any(Function),
      );
      expect(rows.update).toHaveBeenCalledWith(
        TX,
        ROW,
        { description: 'Old' },
        { sortKey: '1500', changed: false },
      );
      expect(answer.headers).toEqual({ etag: '"r8"', projectRevision: 8 });
    });

    it('refuses a change that takes the tree past 8 MiB', async () => {
      rows.update.mockImplementation(() => reply({ ...UPDATED, treeBytes: 8 * MiB + 1 }));
      await expect(
        service.update(ROW, { description: 'x' }, RequestConditions.NONE),
      ).rejects.toBeInstanceOf(LimitExceededError);
    });

    it('accepts a change that shrinks a tree the lock found above 8 MiB', async () => {
      lockFinds(writer, { treeBytes: 9 * MiB });
      rows.update.mockImplementation(() => reply({ ...UPDATED, treeBytes: 9 * MiB - 1 }));
      await expect(
        service.update(ROW, { description: 'x' }, RequestConditions.NONE),
      ).resolves.toBeDefined();
    });
  });

  describeNodeDelete('Row', ROW, () => ({ service, remove: rows.delete, writer }));

  describeNodeMove(
    PLACES,
    () => ({ service, move: rows.move, placed, writer }),
    () => {
      it('accepts the 500th row of the target block and refuses the 501st with LimitExceededError(500)', async () => {
        const moved = movedInto('r1', PLACES.target);
        const body = { blockId: TARGET_ID };
        rows.move.mockImplementationOnce(() => reply({ ...moved, siblings: 500 }));
        await expect(service.move(ROW, body, RequestConditions.NONE)).resolves.toBeDefined();
        rows.move.mockImplementationOnce(() => reply({ ...moved, siblings: 501 }));
        await expect(service.move(ROW, body, RequestConditions.NONE)).rejects.toMatchObject({
          constructor: LimitExceededError,
          limit: 500,
        });
      });
    },
  );

  describeNodeDuplicate(
    PLACES,
    () => ({ service, copy: rows.copy, placed, writer }),
    () => {
      it('accepts the 500th row of the target block and refuses the 501st with LimitExceededError(500)', async () => {
        const copied = copiedInto(PLACES.target);
        const body = { blockId: TARGET_ID };
        rows.copy.mockImplementationOnce(() => ({
          copied: reply({ ...copied, siblings: 500 }),
          json: reply('{}'),
        }));
        await expect(service.duplicate(ROW, body, RequestConditions.NONE)).resolves.toBeDefined();
        rows.copy.mockImplementationOnce(() => ({
          copied: reply({ ...copied, siblings: 501 }),
          json: reply('{}'),
        }));
        await expect(service.duplicate(ROW, body, RequestConditions.NONE)).rejects.toMatchObject({
          constructor: LimitExceededError,
          limit: 500,
        });
      });
    },
  );
});
