import { jest } from '@jest/globals';
import { type Metrics } from '../../metrics/metrics';
import { DEFAULT_CONTENT_STYLE } from '@layout/contracts';
import { LimitExceededError, RequestValidationError } from '../../common/errors';
import { ContentTooLargeError, RefusedMemberError } from '../errors';
import { RequestConditions } from '../../common/http/request-conditions';
import { loadConfig } from '../../config/load-config';
import { type Database } from '../../database/database';
import { type SqlStatement } from '../../database/sql-statement';
import { type Work } from '../../database/unit-of-work';
import { ContentComposer } from '../content/content-composer';
import { type ChangeAnnouncer } from '../events/change-announcer';
import { IdempotencyKeysRepository } from '../repositories/idempotency-keys.repository';
import { NodesRepository } from '../repositories/nodes.repository';
import { ProjectsRepository } from '../repositories/projects.repository';
import { SORT_KEY_GAP } from '../repositories/sql/tree-levels';
import {
  A_NEW_ID,
  COLUMN,
  CONTENT,
  DB,
  expectNotFound,
  fakeConnection,
  type FakeAnswer,
  IDEMPOTENT,
  ifNoneMatch,
  LEVEL_CASES,
  type LevelCase,
  MALFORMED_IDS,
  nodesRepositoryMock,
  type NodesRepositoryMock,
  outcomeOf,
  OVERSIZED,
  REPARENTED_CASES,
  reply,
  ROW,
  TARGET_ID,
  type WriterMock,
  writerMock,
  ANY_ASSETS,
} from '../../../../../test/support/layout-service-fakes';
import { CREATED } from './answer-once';
import { ColumnContents } from './column-contents';
import { NodeWrites } from './node-writes';
import { NodesService } from './nodes.service';
import { TreeWriter } from './tree-writer';

describe('NodesService', () => {
  let nodes: NodesRepositoryMock;
  let writer: WriterMock;
  let service: NodesService;

  beforeEach(() => {
    nodes = nodesRepositoryMock();
    writer = writerMock();
    const repository = nodes as unknown as NodesRepository;
    const writes = new NodeWrites(repository, new ColumnContents(new ContentComposer()));
    service = new NodesService(DB, writer as unknown as TreeWriter, repository, writes, ANY_ASSETS);
  });

  describe.each(LEVEL_CASES)('reads of a $level', (c) => {
    const NODE = { revision: 5, json: '{"_id":"n1"}' };
    const LIST = { revision: 6, json: '[{"_id":"n1"}]' };
    const { level, scope, parentScope } = c;

    it('retrieve without If-None-Match reads the document once (never the revision alone), tagged "r<n>"', async () => {
      const reads = nodes.reads.node[level];
      reads.document.mockResolvedValue(NODE);
      const answer = await service.retrieve(level, scope, RequestConditions.NONE);
      expect(reads.document).toHaveBeenCalledTimes(1);
      expect(reads.document).toHaveBeenCalledWith(DB, scope);
      expect(reads.revision).not.toHaveBeenCalled();
      expect(answer.notModified).toBe(false);
      expect(answer.body?.text).toBe(NODE.json);
      expect(answer.headers).toEqual({ etag: '"r5"' });
    });

    it('retrieve answers 304 from the revision alone when If-None-Match names the current tag, and reads the document at that revision on an old one', async () => {
      const reads = nodes.reads.node[level];
      reads.revision.mockResolvedValue(5);
      for (const tag of ['"r5"', 'W/"r5"', '"r4", "r5"']) {
        const answer = await service.retrieve(level, scope, ifNoneMatch(tag));
        expect(answer.notModified).toBe(true);
        expect(answer.body).toBeUndefined();
        expect(answer.headers).toEqual({ etag: '"r5"' });
      }
      expect(reads.revision).toHaveBeenCalledWith(DB, scope);
      expect(reads.document).not.toHaveBeenCalled();
      expect(reads.documentAt).not.toHaveBeenCalled();

      // The revision it found names the document (kept bytes, when the reads keep some).
      reads.documentAt.mockResolvedValue(NODE);
      const stale = await service.retrieve(level, scope, ifNoneMatch('"r4"'));
      expect(stale.notModified).toBe(false);
      expect(stale.body?.text).toBe(NODE.json);
      expect(stale.headers).toEqual({ etag: '"r5"' });
      expect(reads.documentAt).toHaveBeenCalledTimes(1);
      expect(reads.documentAt).toHaveBeenCalledWith(DB, scope, 5);
      expect(reads.document).not.toHaveBeenCalled();
    });

    it('list is tagged "l<n>": 304 from the revision alone on the current tag or *, read again on an old one', async () => {
      const reads = nodes.reads.list[level];
      reads.document.mockResolvedValue(LIST);
      const full = await service.list(level, parentScope, RequestConditions.NONE);
      expect(reads.document).toHaveBeenCalledWith(DB, parentScope);
      expect(reads.revision).not.toHaveBeenCalled();
      expect(full.body?.text).toBe(LIST.json);
      expect(full.headers).toEqual({ etag: '"l6"' });

      reads.document.mockClear();
      reads.revision.mockResolvedValue(6);
      for (const tag of ['"l6"', '*']) {
        const cached = await service.list(level, parentScope, ifNoneMatch(tag));
        expect(cached.notModified).toBe(true);
        expect(cached.headers).toEqual({ etag: '"l6"' });
      }
      expect(reads.revision).toHaveBeenCalledWith(DB, parentScope);
      expect(reads.document).not.toHaveBeenCalled();

      reads.documentAt.mockResolvedValue(LIST);
      const stale = await service.list(level, parentScope, ifNoneMatch('"l5"'));
      expect(stale.notModified).toBe(false);
      expect(stale.headers).toEqual({ etag: '"l6"' });
      expect(reads.documentAt).toHaveBeenCalledWith(DB, parentScope, 6);
      expect(reads.document).not.toHaveBeenCalled();
    });

    it(`a missing ${level} or ${c.parent.toLowerCase()} is ResourceNotFoundError, with or without If-None-Match`, async () => {
      for (const reads of [nodes.reads.node[level], nodes.reads.list[level]]) {
        reads.document.mockResolvedValue(undefined);
        reads.documentAt.mockResolvedValue(undefined);
        reads.revision.mockResolvedValue(undefined);
      }
      for (const conditions of [RequestConditions.NONE, ifNoneMatch('*')]) {
        await expectNotFound(service.retrieve(level, scope, conditions), c.node);
        await expectNotFound(service.list(level, parentScope, conditions), c.parent);
      }
    });

    it('reads the reads of its own level only', async () => {
      nodes.reads.node[level].document.mockResolvedValue(NODE);
      nodes.reads.list[level].document.mockResolvedValue(LIST);
      await service.retrieve(level, scope, RequestConditions.NONE);
      await service.list(level, parentScope, RequestConditions.NONE);
      for (const other of LEVEL_CASES.filter((o) => o.level !== level)) {
        expect(nodes.reads.node[other.level].document).not.toHaveBeenCalled();
        expect(nodes.reads.list[other.level].document).not.toHaveBeenCalled();
      }
    });
  });

  describe.each(LEVEL_CASES)('writes of a $level', (c) => {
    const { level, scope, nodeId } = c;
    const nodePath = c.pathIn.own(nodeId);
    const position = c.parentMember === undefined ? { position: 0 } : {};

    beforeEach(() => {
      nodes.insert.mockImplementation(() =>
        reply({ json: '{"_id":"new"}', siblings: 1, treeBytes: 1100, others: 0 }),
      );
      nodes.update.mockImplementation(() =>
        reply({ previousRevision: 5, changed: true, json: '{}', treeBytes: 1100, others: 0 }),
      );
      nodes.delete.mockImplementation(() => reply(5));
      nodes.place.mockImplementation(() =>
        reply({
          revision: 5,
          json: '{}',
          destination: c.own,
          moved: true,
          siblings: 1,
          treeBytes: 1100,
          size: 4,
          others: 0,
        }),
      );
      nodes.copy.mockImplementation(() => ({
        copied: reply({
          revision: 5,
          destination: c.own,
          nodes: 1,
          treeBefore: 1000,
          treeAfter: 1100,
          siblings: 2,
          copied: true,
          size: 4,
          others: 0,
        }),
        json: reply('{"_id":"the copy"}'),
      }));
    });

    it(`create runs as "${level}.create" of the list it adds to, once per Idempotency-Key, answering what the write answers`, async () => {
      const answer = await service.create(level, c.parentScope, c.createBody, IDEMPOTENT);
      expect(writer.write).toHaveBeenCalledWith(
        c.parentScope,
        { operation: `${level}.create`, path: c.listPath, least: 'editor' },
        expect.any(Function),
        IDEMPOTENT,
      );
      expect(answer.body?.text).toBe('{"_id":"new"}');
      expect(answer.headers).toMatchObject({ etag: '"r8"', projectRevision: 8 });
      await service.create(level, c.parentScope, c.createBody);
      expect(writer.write).toHaveBeenLastCalledWith(
        c.parentScope,
        expect.anything(),
        expect.any(Function),
        undefined,
      );
      // A replay answers 201, as the create does.
      expect(writer.write.mock.calls[0][4] ?? CREATED).toBe(201);
    });

    it(`update runs as "${level}.update" of the node’s path, with no key`, async () => {
      await expect(
        service.update(level, scope, c.updateBody, RequestConditions.NONE),
      ).resolves.toMatchObject({
        headers: { etag: '"r8"', projectRevision: 8 },
      });
      expect(writer.write.mock.calls[0]).toEqual([
        scope,
        { operation: `${level}.update`, path: nodePath, least: 'editor' },
        expect.any(Function),
      ]);
    });

    it(`delete runs as "${level}.delete" of the node’s path, with no key`, async () => {
      await expect(service.delete(level, scope, RequestConditions.NONE)).resolves.toMatchObject({
        headers: { projectRevision: 8 },
      });
      expect(writer.write.mock.calls[0]).toEqual([
        scope,
        { operation: `${level}.delete`, path: nodePath, least: 'editor' },
        expect.any(Function),
      ]);
    });

    it(`move runs as "${level}.move" of the node’s path, passing the idempotency request on with 200 as the status a replay answers`, async () => {
      await service.move(level, scope, position, RequestConditions.NONE, IDEMPOTENT);
      expect(writer.write).toHaveBeenCalledWith(
        scope,
        { operation: `${level}.move`, path: nodePath, least: 'editor' },
        expect.any(Function),
        IDEMPOTENT,
        200,
      );
      await service.move(level, scope, position, RequestConditions.NONE);
      expect(writer.write).toHaveBeenLastCalledWith(
        scope,
        expect.anything(),
        expect.any(Function),
        undefined,
        200,
      );
    });

    it(`duplicate runs as "${level}.duplicate" of the original’s path, passing the idempotency request on, the status left to it (a copy answers 201)`, async () => {
      const answer = await service.duplicate(level, scope, {}, RequestConditions.NONE, IDEMPOTENT);
      const [called, change, work, idempotency, status] = writer.write.mock.calls[0];
      expect([called, change, work, idempotency]).toEqual([
        scope,
        { operation: `${level}.duplicate`, path: nodePath, least: 'editor' },
        expect.any(Function),
        IDEMPOTENT,
      ]);
      expect(status ?? CREATED).toBe(201);
      expect(answer.body?.text).toBe('{"_id":"the copy"}');
    });
  });

  describe('refusals made before any database work', () => {
    const many = (n: number) => Array.from({ length: n }, () => ({ type: 'empty' as const }));

    it.each([
      [
        'a content’s data over 256 KiB (create)',
        () => service.create('content', COLUMN, { type: 'image', data: OVERSIZED }),
        { constructor: ContentTooLargeError, pointer: '/data' },
      ],
      [
        'a content’s data over 256 KiB (update)',
        () =>
          service.update(
            'content',
            CONTENT,
            { type: 'image', data: OVERSIZED },
            RequestConditions.NONE,
          ),
        { constructor: ContentTooLargeError, pointer: '/data' },
      ],
      [
        'a content’s _id other than the path’s',
        () =>
          service.update(
            'content',
            CONTENT,
            { _id: 'other', type: 'text' },
            RequestConditions.NONE,
          ),
        {
          constructor: RequestValidationError,
          errors: [{ pointer: '/_id', detail: expect.any(String) }],
        },
      ],
      [
        'a column’s _id other than the path’s',
        () => service.update('column', COLUMN, { _id: 'c2', size: 5 }, RequestConditions.NONE),
        {
          constructor: RequestValidationError,
          errors: [{ pointer: '/_id', detail: expect.any(String) }],
        },
      ],
      [
        '1001 contents in a new column',
        () => service.create('column', ROW, { size: 6, contents: many(1001) }),
        {
          constructor: RefusedMemberError,
          pointer: '/contents/1000',
          refusal: expect.objectContaining({ constructor: LimitExceededError, limit: 1000 }),
        },
      ],
      [
        '1001 contents in a column’s update',
        () => service.update('column', COLUMN, { contents: many(1001) }, RequestConditions.NONE),
        { constructor: LimitExceededError, limit: 1000 },
      ],
      [
        'a content’s data over 256 KiB in a new column’s contents',
        () =>
          service.create('column', ROW, {
            size: 6,
            contents: [{ type: 'image', data: OVERSIZED }],
          }),
        {
          constructor: RefusedMemberError,
          pointer: '/contents/0/data',
          refusal: expect.objectContaining({
            constructor: ContentTooLargeError,
            pointer: '/contents/0/data',
          }),
        },
      ],
      [
        'a content’s data over 256 KiB in a column’s contents',
        () =>
          service.update(
            'column',
            COLUMN,
            { contents: [{ type: 'image', data: OVERSIZED }] },
            RequestConditions.NONE,
          ),
        { constructor: ContentTooLargeError, pointer: '/contents/0/data' },
      ],
    ])('%s', async (_name, request, failure) => {
      await expect(outcomeOf(request as () => Promise<unknown>)).rejects.toMatchObject(failure);
      expect(writer.write).not.toHaveBeenCalled();
    });

    describe.each(REPARENTED_CASES)('a $level moved or copied', (c: LevelCase) => {
      it(`into a malformed ${c.parent.toLowerCase()} id is ResourceNotFoundError("${c.parent}")`, async () => {
        for (const id of MALFORMED_IDS) {
          const body = { [c.parentMember!]: id };
          await expectNotFound(
            outcomeOf(() => service.move(c.level, c.scope, body, RequestConditions.NONE)),
            c.parent,
          );
          await expectNotFound(
            outcomeOf(() => service.duplicate(c.level, c.scope, body, RequestConditions.NONE)),
            c.parent,
          );
        }
        expect(writer.write).not.toHaveBeenCalled();
        expect(nodes.place).not.toHaveBeenCalled();
        expect(nodes.copy).not.toHaveBeenCalled();
      });
    });
  });
});

/**
 * The statements each write sends, round by round, as PostgreSQL receives them: NodesService
 * with the real TreeWriter, NodeWrites and NodesRepository, on a connection that binds every
 * statement as the driver would (a missing value fails) and answers each by name.
 */
describe('NodesService, the statements of each write', () => {
  /** The row the lock statement answers for the project at revision 7. */
  const FOUND = { revision: 7, title: 'Old', tree_bytes: '1000', role: 'editor' };
  const CHANGE_PARAMS = ['operation', 'path', 'historyRevisions'];

  let connection: ReturnType<typeof fakeConnection>;
  let service: NodesService;

  /** Answers every statement of the case's level with rows that satisfy every rule. */
  function answering(c: LevelCase): void {
    const { id: parentId, rowId, blockId } = c.own;
    const node = {
      json: `{"_id":"${c.nodeId}"}`,
      siblings: 2,
      tree_bytes: '1100',
      others: 0,
      previous_revision: 5,
      changed: true,
      revision: 5,
      parent_id: parentId,
      row_id: rowId,
      block_id: blockId,
      moved: true,
      size: 4,
      nodes: '1',
      tree_before: '1000',
      tree_after: '1100',
      copied: true,
    };
    const answers: Record<string, FakeAnswer> = {
      'projects.lock': [FOUND],
      'idempotency-keys.forget-expired': [],
      'idempotency-keys.claim': [{ claimed: true }],
      'idempotency-keys.remember': [],
      'nodes.column.find-contents': [{ revision: 5, size: 4, others: 0, contents: null }],
      'nodes.column.read.document': [{ revision: 8, json: '{"_id":"c9"}' }],
      [`nodes.${c.level}.copy-document`]: [{ json: '{"_id":"the copy"}' }],
      [`nodes.${c.level}.delete`]: [{ previous_revision: 5 }],
    };
    connection = fakeConnection(
      (statement: SqlStatement<object, unknown>) =>
        answers[statement.name] ??
        (statement.name.startsWith(`nodes.${c.level}.`) ||
        statement.name === 'nodes.column.replace-contents'
          ? [node]
          : new Error(`The fake connection holds no answer for ${statement.name}`)),
    );
    const db = {
      transaction: jest.fn((work: Work<unknown>) => connection.run(work)),
    } as unknown as Database;
    const writer = new TreeWriter(
      db,
      new ProjectsRepository(),
      new IdempotencyKeysRepository(),
      { announce: jest.fn() } as unknown as ChangeAnnouncer,
      { ...loadConfig({}), history: { revisions: 1000 } },
      { revisionCommitted: jest.fn() } as unknown as Metrics,
    );
    const repository = new NodesRepository();
    const writes = new NodeWrites(repository, new ColumnContents(new ContentComposer()));
    service = new NodesService(db, writer, repository, writes, ANY_ASSETS);
  }

  /** The parameters a statement was sent with, by its name (the first one so named). */
  const paramsOf = (name: string): Record<string, unknown> | undefined =>
    connection.sent.find(({ statement }) => statement.name === name)?.params as
      Record<string, unknown> | undefined;

  describe.each(LEVEL_CASES)('of a $level', (c) => {
    const { level, scope, nodeId } = c;
    const name = (intent: string) => `nodes.${level}.${intent}`;
    /** Where the update of this level reads first: a content's depends on what is stored. */

    beforeEach(() => answering(c));

    it('create: the lock, then the insert, in one round', async () => {
      await service.create(level, c.parentScope, c.createBody);
      expect(connection.rounds).toEqual([['projects.lock', name('insert')]]);
      expect(paramsOf('projects.lock')).toMatchObject({ operation: `${level}.create` });
    });

    it('create at a position: the insert and the placement statement of the new node, by its id, in the lock’s round', async () => {
      await service.create(level, c.parentScope, { ...c.createBody, position: 2 });
      expect(connection.rounds).toEqual([['projects.lock', name('insert'), name('place')]]);
      const inserted = paramsOf(name('insert'))!;
      expect(paramsOf(name('place'))).toEqual({
        ...c.parentScope,
        [c.idParam]: inserted[c.idParam],
        toParentId: null,
        position: 2,
        afterId: null,
      });
    });

    it('create with an Idempotency-Key: the key claimed in the lock’s round, the write in the next, its answer kept in a third', async () => {
      await service.create(level, c.parentScope, { ...c.createBody, position: 0 }, IDEMPOTENT);
      expect(connection.rounds).toEqual([
        ['projects.lock', 'idempotency-keys.forget-expired', 'idempotency-keys.claim'],
        [name('insert'), name('place')],
        ['idempotency-keys.remember'],
      ]);
      expect(paramsOf('idempotency-keys.remember')).toMatchObject({
        status: 201,
        projectRevision: 8,
      });
    });

    it('update: the lock and the update statement, in one round (nothing read first)', async () => {
      await service.update(level, scope, c.updateBody, RequestConditions.NONE);
      expect(connection.rounds).toEqual([['projects.lock', name('update')]]);
    });

    it('update with a position: the placement statement of the node on its path in the round of the update', async () => {
      await service.update(level, scope, { ...c.updateBody, position: 2 }, RequestConditions.NONE);
      expect(connection.rounds).toEqual([['projects.lock', name('update'), name('move')]]);
      expect(paramsOf(name('move'))).toMatchObject({ ...scope, toParentId: null, position: 2 });
    });

    it('delete: the lock and the delete, in one round', async () => {
      await service.delete(level, scope, RequestConditions.NONE);
      expect(connection.rounds).toEqual([['projects.lock', name('delete')]]);
    });

    it('move to a position: the lock and one placement statement, in one round', async () => {
      await service.move(level, scope, { position: 1 }, RequestConditions.NONE);
      expect(connection.rounds).toEqual([['projects.lock', name('move')]]);
      expect(paramsOf(name('move'))).toMatchObject({ ...scope, toParentId: null, position: 1 });
    });

    it('move with an Idempotency-Key keeps its answer with 200', async () => {
      await service.move(level, scope, { position: 1 }, RequestConditions.NONE, IDEMPOTENT);
      expect(connection.rounds).toEqual([
        ['projects.lock', 'idempotency-keys.forget-expired', 'idempotency-keys.claim'],
        [name('move')],
        ['idempotency-keys.remember'],
      ]);
      expect(paramsOf('idempotency-keys.remember')).toMatchObject({ status: 200 });
    });

    it('duplicate beside the original: the copy, its document and its placement right after the original, in the lock’s round', async () => {
      await service.duplicate(level, scope, {}, RequestConditions.NONE);
      expect(connection.rounds).toEqual([
        ['projects.lock', name('copy'), name('copy-document'), name('place-after')],
      ]);
      const { copyId } = paramsOf(name('copy'))!;
      expect(paramsOf(name('copy-document'))).toEqual({ projectId: 'p1', copyId });
      expect(paramsOf(name('place-after'))).toEqual({
        ...scope,
        [c.idParam]: copyId,
        toParentId: null,
        position: null,
        afterId: nodeId,
      });
    });

    it('duplicate at a position: the copy, its document and its placement at the position, in the lock’s round', async () => {
      await service.duplicate(level, scope, { position: 3 }, RequestConditions.NONE);
      expect(connection.rounds).toEqual([
        ['projects.lock', name('copy'), name('copy-document'), name('place')],
      ]);
      expect(paramsOf(name('place'))).toMatchObject({ position: 3, toParentId: null });
    });

    it('every statement is behind the lock and told the change it records, not a revision', async () => {
      await service.duplicate(level, scope, {}, RequestConditions.NONE);
      const [lock, ...rest] = connection.sent;
      expect(lock.statement.parameters).toEqual(expect.arrayContaining(CHANGE_PARAMS));
      for (const { params } of rest) expect(params).not.toHaveProperty('revision');
    });
  });

  describe.each(REPARENTED_CASES)('of a $level into another parent', (c) => {
    const name = (intent: string) => `nodes.${c.level}.${intent}`;

    beforeEach(() => answering(c));

    it('move: one placement statement to the end of the parent named', async () => {
      await service.move(
        c.level,
        c.scope,
        { [c.parentMember!]: TARGET_ID },
        RequestConditions.NONE,
      );
      expect(connection.rounds).toEqual([['projects.lock', name('move-to-end')]]);
      expect(paramsOf(name('move-to-end'))).toMatchObject({ ...c.scope, toParentId: TARGET_ID });
    });

    it('duplicate: the copy and its document, at the end of the parent named, with no placement', async () => {
      await service.duplicate(
        c.level,
        c.scope,
        { [c.parentMember!]: TARGET_ID },
        RequestConditions.NONE,
      );
      expect(connection.rounds).toEqual([['projects.lock', name('copy'), name('copy-document')]]);
      expect(paramsOf(name('copy'))).toMatchObject({ toParentId: TARGET_ID });
    });
  });

  describe('of a whole tree', () => {
    beforeEach(() => answering(LEVEL_CASES[0]));

    it('create of a block with a whole tree: one insert carries every level beneath it, each parent named by its new id', async () => {
      await service.create('block', LEVEL_CASES[0].parentScope, {
        description: 'Intro',
        rows: [{ columns: [{ size: 6, contents: [{ type: 'empty' }, { type: 'empty' }] }] }],
      });
      expect(connection.rounds).toEqual([
        ['projects.lock', 'nodes.block.insert', 'nodes.block.read.document'],
      ]);
      const inserted = paramsOf('nodes.block.insert')!;
      const [rowId] = inserted.rowIds as string[];
      const [columnId] = inserted.columnIds as string[];
      expect(inserted).toMatchObject({
        rowIds: [A_NEW_ID],
        rowParents: [inserted.blockId],
        rowDescriptions: [''],
        columnIds: [A_NEW_ID],
        columnParents: [rowId],
        columnSizes: [6],
        contentIds: [A_NEW_ID, A_NEW_ID],
        contentParents: [columnId, columnId],
        contentKeys: [String(SORT_KEY_GAP), String(2 * SORT_KEY_GAP)],
      });
    });
  });

  describe('of a column’s contents', () => {
    beforeEach(() => answering(LEVEL_CASES[2]));

    it('create with contents: the insert (the contents in it, as arrays) and the read of its document, in the lock’s round', async () => {
      await service.create('column', ROW, { size: 6, contents: [{ type: 'empty' }] });
      expect(connection.rounds).toEqual([
        ['projects.lock', 'nodes.column.insert', 'nodes.column.read.document'],
      ]);
      const { columnId, ...inserted } = paramsOf('nodes.column.insert')!;
      expect(inserted).toMatchObject({
        contentIds: [A_NEW_ID],
        contentParents: [columnId],
        contentKeys: [String(SORT_KEY_GAP)],
        contentTypes: ['empty'],
        contentStyles: [JSON.stringify(DEFAULT_CONTENT_STYLE)],
        contentDatas: ['{}'],
      });
      expect(paramsOf('nodes.column.read.document')).toMatchObject({
        columnId,
        accountId: 'acc-1',
      });
    });

    it('create with an _id in its contents: the _id ignored, the content made with a new id (part three: a read posted back makes a copy)', async () => {
      await service.create('column', ROW, {
        size: 6,
        contents: [{ _id: 'ct1', type: 'empty' }],
      } as never);
      const { contentIds } = paramsOf('nodes.column.insert')!;
      expect(contentIds).toEqual([A_NEW_ID]);
    });

    it('create without contents: the insert with empty arrays, and no read of its document', async () => {
      await service.create('column', ROW, { size: 6 });
      expect(connection.rounds).toEqual([['projects.lock', 'nodes.column.insert']]);
      expect(paramsOf('nodes.column.insert')).toMatchObject({ contentIds: [], contentDatas: [] });
    });

    it('update with new contents: the column with its contents read in the lock’s round, then the contents and the update', async () => {
      await service.update(
        'column',
        COLUMN,
        { contents: [{ type: 'empty' }], position: 0 },
        RequestConditions.NONE,
      );
      expect(connection.rounds).toEqual([
        ['projects.lock', 'nodes.column.find-contents'],
        ['nodes.column.replace-contents', 'nodes.column.update', 'nodes.column.move'],
      ]);
    });

    it('update with the contents as they are: the update alone in the second round', async () => {
      await service.update('column', COLUMN, { size: 3, contents: [] }, RequestConditions.NONE);
      expect(connection.rounds).toEqual([
        ['projects.lock', 'nodes.column.find-contents'],
        ['nodes.column.update'],
      ]);
    });
  });
});
