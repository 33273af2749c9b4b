import { jest } from '@jest/globals';
import {
  BlockStyleDto,
  type ColumnContentDto,
  DEFAULT_BLOCK_STYLE,
  DEFAULT_CONTENT_STYLE,
} from '@layout/contracts';
import {
  LimitExceededError,
  PreconditionFailedError,
  RequestValidationError,
  ResourceNotFoundError,
} from '../../common/errors';
import { ContentTooLargeError, RefusedMemberError, RowWidthExceededError } from '../errors';
import { RequestConditions } from '../../common/http/request-conditions';
import { ContentComposer } from '../content/content-composer';
import { type ContentRecord } from '../layout.records';
import { type LockedProject } from '../locked-round';
import { type NodesRepository } from '../repositories/nodes.repository';
import { type ChildLevel, SORT_KEY_GAP } from '../repositories/sql/tree-levels';
import {
  A_NEW_ID,
  BLOCK,
  COLUMN,
  CONTENT,
  copiedInto,
  COUNTED_CASES,
  expectNotFound,
  ifMatch,
  LATE_LOCK,
  LEVEL_CASES,
  type LevelCase,
  LOCKED,
  MALFORMED_IDS,
  MiB,
  movedInto,
  nodeWritesOf,
  nodesRepositoryMock,
  type NodesRepositoryMock,
  OVERSIZED,
  PROJECT,
  reply,
  REPARENTED_CASES,
  ROW,
  runWrite,
  sentByRound,
  TARGET_ID,
  TX,
} from '../../../../../test/support/layout-service-fakes';
import { ColumnContents } from './column-contents';
import { type MemberUpdate, NodeWrites, type NodeWork } from './node-writes';

// The rules of every write of a node (NodeWrites), each run as TreeWriter runs it: its first
// round sent while the lock has not answered, the lock's verdict first, then each round's
// continuation once the round has answered (runWrite). The repository is mocked: what each
// write sends is named by the repository method it calls (sentByRound), and its answers arrive
// only once their round is over (reply), so a rule that read one too early would fail here.

/** A column's own row, as a placement reports it. */
const COLUMN_OWN = { id: 'r1', rowId: null, blockId: 'b1' };

/** What a create whose body lists no children makes beneath its node: nothing, its node alone. */
const NOTHING_BENEATH = { nodes: 1, levels: {} };

/**
 * For each level that holds children, a create's body that lists two (the member, their level
 * and what each stores), and children that break one of their rules, with its pointer.
 */
const TREES: Partial<
  Record<
    ChildLevel,
    {
      member: string;
      level: ChildLevel;
      children: object[];
      values: object[];
      refused: { children: object[]; pointer: string; refusal: object };
    }
  >
> = {
  block: {
    member: 'rows',
    level: 'row',
    children: [{ description: 'Top' }, {}],
    values: [{ description: 'Top' }, { description: '' }],
    refused: {
      children: Array.from({ length: 501 }, () => ({})),
      pointer: '/rows/500',
      refusal: { constructor: LimitExceededError, limit: 500 },
    },
  },
  row: {
    member: 'columns',
    level: 'column',
    children: [{ size: 4 }, { size: 8 }],
    values: [{ size: 4 }, { size: 8 }],
    refused: {
      children: [{ size: 8 }, { size: 5 }],
      pointer: '/columns/1/size',
      refusal: { constructor: RowWidthExceededError, availableSize: 4, requestedSize: 5 },
    },
  },
  column: {
    member: 'contents',
    level: 'content',
    children: [{ type: 'empty' }, { type: 'text', data: { html: '<p>x<script>y</script></p>' } }],
    values: [
      { type: 'empty', style: { ...DEFAULT_CONTENT_STYLE }, data: {} },
      { type: 'text', style: { ...DEFAULT_CONTENT_STYLE }, data: { html: '<p>x</p>' } },
    ],
    refused: {
      children: [{ type: 'empty' }, { type: 'image', data: OVERSIZED }],
      pointer: '/contents/1/data',
      refusal: { constructor: ContentTooLargeError, pointer: '/contents/1/data' },
    },
  },
};

describe('NodeWrites', () => {
  let nodes: NodesRepositoryMock;
  let composer: ContentComposer;
  let writes: NodeWrites;

  beforeEach(() => {
    nodes = nodesRepositoryMock();
    composer = new ContentComposer();
    writes = new NodeWrites(nodes as unknown as NodesRepository, new ColumnContents(composer));
  });

  afterEach(() => jest.restoreAllMocks());

  /** Runs `work` behind a lock that finds the project as `project` (LOCKED). */
  const run = <T>(work: NodeWork<T>, project: LockedProject = LOCKED) =>
    runWrite(work, { project });
  /** Runs `work` behind a lock that finds no project of the caller’s. */
  const runWithoutProject = <T>(work: NodeWork<T>) => runWrite(work, { missing: true });
  /**
   * Runs `work` behind a lock that answers late (LATE_LOCK: revision 13), checking `whileSending`
   * once its first round is sent, before anything has answered.
   */
  const runChecking = <T>(work: NodeWork<T>, whileSending: () => void) =>
    runWrite(work, { project: LATE_LOCK }, whileSending);
  /** What the last write sent in each round, by repository method. */
  const sent = () => sentByRound(nodeWritesOf(nodes));
  /** The id the write made for the node that its `call`th insert created. */
  const newId = (c: LevelCase, call = 0): string => nodes.insert.mock.calls[call][2][c.idParam];

  describe.each(LEVEL_CASES)('$level', (c) => {
    const { level, scope, nodeId } = c;

    describe('create', () => {
      const CREATED = { json: '{"_id":"new"}', siblings: 3, treeBytes: 1200, ...c.reported };

      beforeEach(() => {
        nodes.insert.mockImplementation(() => reply(CREATED));
      });

      it('appends it under the parent on the path, with a new id, and answers it with etag "r8", revision 8 and its Location', async () => {
        const answer = await run(writes.create(level, c.parentScope, c.createBody));
        expect(nodes.insert).toHaveBeenCalledWith(
          TX,
          level,
          { ...c.parentScope, [c.idParam]: A_NEW_ID },
          c.values,
          NOTHING_BENEATH,
        );
        expect(nodes.place).not.toHaveBeenCalled();
        expect(answer.body?.text).toBe(CREATED.json);
        expect(answer.headers).toEqual({
          etag: '"r8"',
          projectRevision: 8,
          location: c.pathIn.own(newId(c)),
        });
      });

      it('sends its insert in the lock’s round, its only round, then answers at the revision the lock reports', async () => {
        const work = writes.create(level, c.parentScope, c.createBody);
        const answer = runChecking(work, () => expect(nodes.insert).toHaveBeenCalledTimes(1));
        await expect(answer).resolves.toMatchObject({
          headers: { etag: '"r13"', projectRevision: 13 },
        });
        expect(sent()).toEqual([['insert']]);
      });

      it('gives every new node an id of its own', async () => {
        await run(writes.create(level, c.parentScope, c.createBody));
        await run(writes.create(level, c.parentScope, c.createBody));
        expect(newId(c, 0)).not.toBe(newId(c, 1));
      });

      it('at a position, sends the placement statement (by the new node’s id) in the same round as the insert', async () => {
        const body = { ...c.createBody, position: 2 };
        const answer = await run(writes.create(level, c.parentScope, body));
        const node = { ...c.parentScope, [c.idParam]: newId(c) };
        expect(nodes.insert).toHaveBeenCalledWith(TX, level, node, c.values, NOTHING_BENEATH);
        expect(nodes.place).toHaveBeenCalledWith(TX, level, node, {
          find: 'id',
          to: 'position',
          toParentId: null,
          position: 2,
        });
        expect(sent()).toEqual([['insert', 'place']]);
        expect(answer.headers).toEqual({
          etag: '"r8"',
          projectRevision: 8,
          location: c.pathIn.own(newId(c)),
        });
      });

      it(`a ${c.parent.toLowerCase()} that is not on the path is ResourceNotFoundError("${c.parent}")`, async () => {
        nodes.insert.mockImplementation(() => reply(undefined));
        await expectNotFound(run(writes.create(level, c.parentScope, c.createBody)), c.parent);
      });

      it('accepts a node that takes the tree to 8 MiB exactly, and refuses one past it with LimitExceededError(8 MiB)', async () => {
        nodes.insert.mockImplementationOnce(() => reply({ ...CREATED, treeBytes: 8 * MiB }));
        await expect(run(writes.create(level, c.parentScope, c.createBody))).resolves.toBeDefined();
        nodes.insert.mockImplementationOnce(() => reply({ ...CREATED, treeBytes: 8 * MiB + 1 }));
        await expect(run(writes.create(level, c.parentScope, c.createBody))).rejects.toMatchObject({
          constructor: LimitExceededError,
          limit: 8 * MiB,
        });
      });

      it('another account’s project is ResourceNotFoundError("Project"), before the node’s rules', async () => {
        nodes.insert.mockImplementation(() => reply(undefined));
        await expectNotFound(
          runWithoutProject(writes.create(level, c.parentScope, c.createBody)),
          'Project',
        );
      });

      const tree = TREES[level];
      if (tree === undefined) {
        it('lists no children: a content’s create makes its node alone and reads no document', async () => {
          await run(writes.create(level, c.parentScope, c.createBody));
          expect(nodes.insert.mock.calls[0][4]).toEqual(NOTHING_BENEATH);
          expect(nodes.reads.node[level].documentIn).not.toHaveBeenCalled();
        });
        return;
      }

      describe(`with the ${tree.member} its body lists`, () => {
        const DOCUMENT = { revision: 8, json: '{"_id":"new","children":[1,2]}' };
        const body = { ...c.createBody, [tree.member]: tree.children };

        beforeEach(() => {
          nodes.reads.node[level].documentIn.mockImplementation(() => reply(DOCUMENT));
        });

        it('sends them in its one insert, beneath the new node, in the order given, then answers its document as read after it, in the same round', async () => {
          const work = writes.create(level, c.parentScope, body);
          const answer = await runChecking(work, () => {
            expect(nodes.insert).toHaveBeenCalledTimes(1);
            expect(nodes.reads.node[level].documentIn).toHaveBeenCalledTimes(1);
          });
          const node = { ...c.parentScope, [c.idParam]: newId(c) };
          const id = newId(c);
          expect(nodes.insert).toHaveBeenCalledWith(TX, level, node, c.values, {
            nodes: 3,
            levels: {
              [tree.level]: {
                ids: [A_NEW_ID, A_NEW_ID],
                parents: [id, id],
                keys: [String(SORT_KEY_GAP), String(2 * SORT_KEY_GAP)],
                values: tree.values,
              },
            },
          });
          const [first, second] = nodes.insert.mock.calls[0][4].levels[tree.level].ids;
          expect(new Set([id, first, second]).size).toBe(3);
          expect(nodes.reads.node[level].documentIn).toHaveBeenCalledWith(TX, node);
          expect(sent()).toEqual([['insert', 'documentIn']]);
          expect(answer.body?.text).toBe(DOCUMENT.json);
          expect(answer.headers).toEqual({
            etag: '"r13"',
            projectRevision: 13,
            location: c.pathIn.own(id),
          });
        });

        it('refuses a tree past 8 MiB as a whole (pointer ""), LimitExceededError(8 MiB) inside RefusedMemberError', async () => {
          nodes.insert.mockImplementationOnce(() => reply({ ...CREATED, treeBytes: 8 * MiB }));
          await expect(run(writes.create(level, c.parentScope, body))).resolves.toBeDefined();
          nodes.insert.mockImplementationOnce(() => reply({ ...CREATED, treeBytes: 8 * MiB + 1 }));
          await expect(run(writes.create(level, c.parentScope, body))).rejects.toMatchObject({
            constructor: RefusedMemberError,
            pointer: '',
            refusal: expect.objectContaining({ constructor: LimitExceededError, limit: 8 * MiB }),
          });
        });

        it(`refuses a child that breaks its rule before any database work, at ${tree.refused.pointer}`, () => {
          const refused = { ...c.createBody, [tree.member]: tree.refused.children };
          expect(() => writes.create(level, c.parentScope, refused)).toThrow(
            expect.objectContaining({
              constructor: RefusedMemberError,
              pointer: tree.refused.pointer,
              refusal: expect.objectContaining(tree.refused.refusal),
            }),
          );
          expect(nodes.insert).not.toHaveBeenCalled();
        });
      });
    });

    describe('update', () => {
      const UPDATED = {
        previousRevision: 5,
        changed: true,
        json: `{"_id":"${nodeId}","changed":true}`,
        treeBytes: 1100,
        others: level === 'column' ? 6 : undefined,
      };
      /** What the update statement reports of a node whose members stay as they are. */
      const KEPT = {
        ...UPDATED,
        changed: false,
        json: `{"_id":"${nodeId}"}`,
        treeBytes: undefined,
      };

      beforeEach(() => {
        nodes.update.mockImplementation(() => reply(UPDATED));
        nodes.place.mockImplementation(() => reply(movedInto(nodeId, c.own, c.reported)));
      });

      it('a change answers the node the statement reports, with the write’s revision 8 as its tag', async () => {
        const answer = await run(writes.update(level, scope, c.updateBody, RequestConditions.NONE));
        expect(nodes.update).toHaveBeenCalledWith(
          TX,
          level,
          scope,
          expect.objectContaining(c.changes),
        );
        expect(nodes.place).not.toHaveBeenCalled();
        expect(answer.body?.text).toBe(UPDATED.json);
        expect(answer.headers).toEqual({ etag: '"r8"', projectRevision: 8 });
      });

      it(`a missing ${level} is ResourceNotFoundError("${c.node}"), whatever If-Match says`, async () => {
        nodes.update.mockImplementation(() => reply(undefined));
        nodes.place.mockImplementation(() => reply(undefined));
        for (const conditions of [RequestConditions.NONE, ifMatch('*'), ifMatch('"r5"')]) {
          await expectNotFound(run(writes.update(level, scope, c.updateBody, conditions)), c.node);
        }
      });

      it(`fails with the ${level}’s own tag when If-Match names another (not the project’s; the write rolls back)`, async () => {
        for (const tag of ['"r4"', '"r7"', '"r8"', 'W/"r5"']) {
          await expect(
            run(writes.update(level, scope, c.updateBody, ifMatch(tag))),
          ).rejects.toMatchObject({ constructor: PreconditionFailedError, currentTag: '"r5"' });
        }
        for (const tag of ['"r5"', '*', '"r4", "r5"']) {
          await expect(
            run(writes.update(level, scope, c.updateBody, ifMatch(tag))),
          ).resolves.toBeDefined();
        }
      });

      it('a request that changes no member and does not move answers the node as it is: its tag r5, the current revision 7', async () => {
        nodes.update.mockImplementation(() => reply(KEPT));
        const answer = await run(writes.update(level, scope, c.updateBody, ifMatch('"r5"')));
        expect(answer.body?.text).toBe(KEPT.json);
        expect(answer.headers).toEqual({ etag: '"r5"', projectRevision: 7 });
      });

      it('at a position, sends the placement statement (the node on its path, within its parent) in the same round as the update', async () => {
        await run(
          writes.update(level, scope, { ...c.updateBody, position: 2 }, RequestConditions.NONE),
        );
        expect(nodes.place).toHaveBeenCalledWith(TX, level, scope, {
          find: 'path',
          to: 'position',
          toParentId: null,
          position: 2,
        });
        const rounds = sent();
        expect(rounds[rounds.length - 1]).toEqual(['update', 'place']);
      });

      it('a position where the node is already changes nothing: its tag r5, the current revision 7', async () => {
        nodes.update.mockImplementation(() => reply(KEPT));
        nodes.place.mockImplementation(() =>
          reply({
            ...movedInto(nodeId, c.own, c.reported),
            moved: false,
            siblings: undefined,
            treeBytes: undefined,
          }),
        );
        const answer = await run(
          writes.update(level, scope, { ...c.updateBody, position: 2 }, RequestConditions.NONE),
        );
        expect(answer.headers).toEqual({ etag: '"r5"', projectRevision: 7 });
      });

      it('a move alone takes a project revision, and the node takes it as its tag', async () => {
        nodes.update.mockImplementation(() => reply(KEPT));
        const answer = await run(
          writes.update(level, scope, { ...c.updateBody, position: 0 }, RequestConditions.NONE),
        );
        expect(answer.body?.text).toBe(KEPT.json);
        expect(answer.headers).toEqual({ etag: '"r8"', projectRevision: 8 });
      });

      it('refuses a change that takes the tree past 8 MiB, and accepts one that shrinks a tree the lock found above it', async () => {
        nodes.update.mockImplementation(() => reply({ ...UPDATED, treeBytes: 8 * MiB + 1 }));
        await expect(
          run(writes.update(level, scope, c.updateBody, RequestConditions.NONE)),
        ).rejects.toMatchObject({ constructor: LimitExceededError, limit: 8 * MiB });
        nodes.update.mockImplementation(() => reply({ ...UPDATED, treeBytes: 9 * MiB - 1 }));
        await expect(
          run(writes.update(level, scope, c.updateBody, RequestConditions.NONE), {
            ...LOCKED,
            treeBytes: 9 * MiB,
          }),
        ).resolves.toBeDefined();
      });

      it('another account’s project is ResourceNotFoundError("Project"), before the node’s rules', async () => {
        nodes.update.mockImplementation(() => reply(undefined));
        await expectNotFound(
          runWithoutProject(writes.update(level, scope, c.updateBody, ifMatch('"r1"'))),
          'Project',
        );
      });
    });

    describe('delete', () => {
      beforeEach(() => {
        nodes.delete.mockImplementation(() => reply(5));
      });

      it('deletes at revision 8 and answers no body with Project-Revision 8', async () => {
        const deleted = await run(writes.delete(level, scope, ifMatch('"r5"')));
        expect(nodes.delete).toHaveBeenCalledWith(TX, level, scope);
        expect(deleted.body).toBeUndefined();
        expect(deleted.notModified).toBe(false);
        expect(deleted.headers).toEqual({ projectRevision: 8 });
      });

      it('sends the delete in the lock’s round, its only round, then answers at the revision the lock reports', async () => {
        const work = writes.delete(level, scope, ifMatch('"r5"'));
        const answer = runChecking(work, () =>
          expect(nodes.delete).toHaveBeenCalledWith(TX, level, scope),
        );
        await expect(answer).resolves.toMatchObject({ headers: { projectRevision: 13 } });
        expect(sent()).toEqual([['delete']]);
      });

      it(`fails with the deleted ${level}’s tag when If-Match names another (the write rolls back)`, async () => {
        // An older tag, the project's current and next revisions, and the weak form of its own.
        for (const tag of ['"r4"', '"r7"', '"r8"', 'W/"r5"']) {
          await expect(run(writes.delete(level, scope, ifMatch(tag)))).rejects.toMatchObject({
            constructor: PreconditionFailedError,
            currentTag: '"r5"',
          });
        }
      });

      it(`a missing ${level} is ResourceNotFoundError("${c.node}"), whatever If-Match says`, async () => {
        nodes.delete.mockImplementation(() => reply(undefined));
        for (const conditions of [RequestConditions.NONE, ifMatch('*'), ifMatch('"r5"')]) {
          await expectNotFound(run(writes.delete(level, scope, conditions)), c.node);
        }
      });

      it('another account’s project is ResourceNotFoundError("Project"), before the node’s rules', async () => {
        nodes.delete.mockImplementation(() => reply(undefined));
        await expectNotFound(
          runWithoutProject(writes.delete(level, scope, ifMatch('"r1"'))),
          'Project',
        );
      });
    });

    describe('move', () => {
      /** What the placement reports: the node's tag r5, moved to another place of its parent. */
      const MOVED = movedInto(nodeId, c.own, c.reported);
      /** What it reports when the node was where the request puts it already. */
      const STAYED = { ...MOVED, moved: false, siblings: undefined, treeBytes: undefined };
      /** A move within its own parent, to index 2. */
      const TO_2 = { position: 2 };

      beforeEach(() => {
        nodes.place.mockImplementation(() => reply(MOVED));
      });

      it('moves within its own parent to the position asked, in one placement statement, and answers the node with the move’s revision 8 as its tag and its Location', async () => {
        const answer = await run(writes.move(level, scope, TO_2, RequestConditions.NONE));
        expect(nodes.place).toHaveBeenCalledWith(TX, level, scope, {
          find: 'path',
          to: 'position',
          toParentId: null,
          position: 2,
        });
        // The statement finds its own place: nothing is read before it.
        expect(sent()).toEqual([['place']]);
        expect(answer.body?.text).toBe(MOVED.json);
        expect(answer.headers).toEqual({
          etag: '"r8"',
          projectRevision: 8,
          location: c.pathIn.own(nodeId),
        });
      });

      it('sends its placement in the lock’s round, then answers at the revision the lock reports', async () => {
        const work = writes.move(level, scope, TO_2, RequestConditions.NONE);
        const answer = runChecking(work, () => expect(nodes.place).toHaveBeenCalledTimes(1));
        await expect(answer).resolves.toMatchObject({
          headers: { etag: '"r13"', projectRevision: 13 },
        });
      });

      it('a move to where the node is already changes nothing and answers its tag r5 at the current revision 7', async () => {
        nodes.place.mockImplementation(() => reply(STAYED));
        const answer = await run(writes.move(level, scope, { position: 1 }, ifMatch('"r5"')));
        expect(answer.body?.text).toBe(MOVED.json);
        expect(answer.headers).toEqual({
          etag: '"r5"',
          projectRevision: 7,
          location: c.pathIn.own(nodeId),
        });
      });

      it('checks no limit when the node did not move', async () => {
        nodes.place.mockImplementation(() =>
          reply({ ...STAYED, ...c.full, treeBytes: 9 * MiB + 1 }),
        );
        await expect(
          run(writes.move(level, scope, TO_2, RequestConditions.NONE)),
        ).resolves.toBeDefined();
      });

      it(`a missing ${level} is ResourceNotFoundError("${c.node}"), whatever If-Match says`, async () => {
        nodes.place.mockImplementation(() => reply(undefined));
        for (const conditions of [RequestConditions.NONE, ifMatch('*'), ifMatch('"r5"')]) {
          await expectNotFound(run(writes.move(level, scope, TO_2, conditions)), c.node);
        }
      });

      it(`fails with the ${level}’s own tag when If-Match names another (the write rolls back)`, async () => {
        // An older tag, the project's current and next revisions, and the weak form of its own.
        for (const tag of ['"r4"', '"r7"', '"r8"', 'W/"r5"']) {
          await expect(run(writes.move(level, scope, TO_2, ifMatch(tag)))).rejects.toMatchObject({
            constructor: PreconditionFailedError,
            currentTag: '"r5"',
          });
        }
        for (const tag of ['"r5"', '*', '"r4", "r5"']) {
          await expect(run(writes.move(level, scope, TO_2, ifMatch(tag)))).resolves.toBeDefined();
        }
      });

      it('checks If-Match before the limits', async () => {
        nodes.place.mockImplementation(() => reply({ ...MOVED, ...c.full, treeBytes: 9 * MiB }));
        await expect(run(writes.move(level, scope, TO_2, ifMatch('"r4"')))).rejects.toBeInstanceOf(
          PreconditionFailedError,
        );
      });

      it('refuses a move that takes the tree past 8 MiB, not one that stays at 8 MiB', async () => {
        nodes.place.mockImplementationOnce(() => reply({ ...MOVED, treeBytes: 8 * MiB }));
        await expect(
          run(writes.move(level, scope, TO_2, RequestConditions.NONE)),
        ).resolves.toBeDefined();
        nodes.place.mockImplementationOnce(() => reply({ ...MOVED, treeBytes: 8 * MiB + 1 }));
        await expect(
          run(writes.move(level, scope, TO_2, RequestConditions.NONE)),
        ).rejects.toMatchObject({
          constructor: LimitExceededError,
          limit: 8 * MiB,
        });
      });

      it('another account’s project is ResourceNotFoundError("Project"), before the node’s rules', async () => {
        nodes.place.mockImplementation(() => reply(undefined));
        await expectNotFound(
          runWithoutProject(writes.move(level, scope, TO_2, ifMatch('"r1"'))),
          'Project',
        );
      });
    });

    describe('duplicate', () => {
      const COPIED = copiedInto(c.own, c.reported);
      const COPY_JSON = '{"_id":"the copy"}';
      /** Makes the copy report `copied` and its document `json` (null: none found). */
      const copies = (copied: object | undefined, json: string | null = COPY_JSON) =>
        nodes.copy.mockImplementation(() => ({
          copied: reply(copied),
          json: reply(json ?? undefined),
        }));
      /** A report of a copy refused by the statement: nothing made, nothing counted. */
      const REFUSED = { copied: false, siblings: undefined };
      /** The id the write made for the copy. */
      const copyId = (call = 0): string => nodes.copy.mock.calls[call][3].copyId;

      beforeEach(() => {
        copies(COPIED);
      });

      it('copies right after the original with a new id (the copy, its document and its placement in one round), and answers the copy with etag "r8", revision 8 and its Location', async () => {
        const answer = await run(writes.duplicate(level, scope, {}, RequestConditions.NONE));
        expect(nodes.copy).toHaveBeenCalledWith(TX, level, scope, {
          copyId: A_NEW_ID,
          toParentId: null,
          maxNodes: 20_000,
          maxTreeBytes: 8 * MiB,
        });
        expect(nodes.place).toHaveBeenCalledWith(TX, level, c.scopeWithId(copyId()), {
          find: 'id',
          to: 'after',
          toParentId: null,
          afterId: nodeId,
        });
        expect(sent()).toEqual([['copy', 'place']]);
        expect(answer.body?.text).toBe(COPY_JSON);
        expect(answer.headers).toEqual({
          etag: '"r8"',
          projectRevision: 8,
          location: c.pathIn.own(copyId()),
        });
      });

      it('puts the copy at the position asked (which wins over right after the original)', async () => {
        await run(writes.duplicate(level, scope, { position: 0 }, RequestConditions.NONE));
        expect(nodes.place).toHaveBeenCalledWith(TX, level, c.scopeWithId(copyId()), {
          find: 'id',
          to: 'position',
          toParentId: null,
          position: 0,
        });
        expect(sent()).toEqual([['copy', 'place']]);
      });

      it('gives every copy an id of its own', async () => {
        const first = await run(writes.duplicate(level, scope, {}, RequestConditions.NONE));
        const second = await run(writes.duplicate(level, scope, {}, RequestConditions.NONE));
        expect(copyId(0)).toEqual(A_NEW_ID);
        expect(copyId(1)).toEqual(A_NEW_ID);
        expect(copyId(0)).not.toBe(copyId(1));
        expect(first.headers.location).toBe(c.pathIn.own(copyId(0)));
        expect(second.headers.location).toBe(c.pathIn.own(copyId(1)));
      });

      it('sends the copy, the read of its document and its placement in the lock’s round, then answers at the revision the lock reports', async () => {
        const work = writes.duplicate(level, scope, {}, RequestConditions.NONE);
        const answer = runChecking(work, () => {
          expect(nodes.copy).toHaveBeenCalledTimes(1);
          expect(nodes.place).toHaveBeenCalledTimes(1);
        });
        await expect(answer).resolves.toMatchObject({
          headers: { etag: '"r13"', projectRevision: 13 },
        });
      });

      it(`a missing ${level} is ResourceNotFoundError("${c.node}"), whatever If-Match says`, async () => {
        copies(undefined, null);
        for (const conditions of [RequestConditions.NONE, ifMatch('*'), ifMatch('"r5"')]) {
          await expectNotFound(run(writes.duplicate(level, scope, {}, conditions)), c.node);
        }
      });

      it('fails with the original’s tag when If-Match names another (the write rolls back)', async () => {
        for (const tag of ['"r4"', '"r7"', '"r8"', 'W/"r5"']) {
          await expect(run(writes.duplicate(level, scope, {}, ifMatch(tag)))).rejects.toMatchObject(
            {
              constructor: PreconditionFailedError,
              currentTag: '"r5"',
            },
          );
        }
        await expect(
          run(writes.duplicate(level, scope, {}, ifMatch('"r5"'))),
        ).resolves.toMatchObject({
          headers: { etag: '"r8"' },
        });
      });

      it('checks If-Match before the limits', async () => {
        copies({ ...COPIED, ...REFUSED, ...c.full, nodes: 20_001, treeAfter: 9 * MiB }, null);
        await expect(
          run(writes.duplicate(level, scope, {}, ifMatch('"r4"'))),
        ).rejects.toBeInstanceOf(PreconditionFailedError);
      });

      it('accepts a copy of 20 000 nodes and refuses one of 20 001 with LimitExceededError(20000)', async () => {
        copies({ ...COPIED, nodes: 20_000 });
        await expect(
          run(writes.duplicate(level, scope, {}, RequestConditions.NONE)),
        ).resolves.toBeDefined();
        copies({ ...COPIED, ...REFUSED, nodes: 20_001 }, null);
        await expect(
          run(writes.duplicate(level, scope, {}, RequestConditions.NONE)),
        ).rejects.toMatchObject({
          constructor: LimitExceededError,
          limit: 20_000,
        });
      });

      it('refuses a copy that takes the tree past 8 MiB, not one that stays at 8 MiB', async () => {
        copies({ ...COPIED, treeAfter: 8 * MiB });
        await expect(
          run(writes.duplicate(level, scope, {}, RequestConditions.NONE)),
        ).resolves.toBeDefined();
        copies({ ...COPIED, ...REFUSED, treeAfter: 8 * MiB + 1 }, null);
        await expect(
          run(writes.duplicate(level, scope, {}, RequestConditions.NONE)),
        ).rejects.toMatchObject({
          constructor: LimitExceededError,
          limit: 8 * MiB,
        });
      });

      it('a copy the statement refused under no rule the service knows fails as a defect, not as a client error', async () => {
        copies({ ...COPIED, ...REFUSED }, null);
        await expect(
          run(writes.duplicate(level, scope, {}, RequestConditions.NONE)),
        ).rejects.toMatchObject({
          constructor: Error,
          message: 'A copy was refused by no rule the service knows',
        });
      });

      it(`a copy whose document its round does not find is ResourceNotFoundError("${c.node}")`, async () => {
        copies(COPIED, null);
        await expectNotFound(
          run(writes.duplicate(level, scope, {}, RequestConditions.NONE)),
          c.node,
        );
      });

      it('another account’s project is ResourceNotFoundError("Project"), before the node’s rules', async () => {
        copies(undefined, null);
        await expectNotFound(
          runWithoutProject(writes.duplicate(level, scope, {}, ifMatch('"r1"'))),
          'Project',
        );
      });
    });
  });

  describe.each(REPARENTED_CASES)('$level, into another parent', (c) => {
    const { level, scope, nodeId, parentMember } = c;
    const Parent = c.parent;
    const into = (parentId?: string, position?: number) => ({
      ...(parentId === undefined ? {} : { [parentMember!]: parentId }),
      ...(position === undefined ? {} : { position }),
    });

    describe('move', () => {
      const MOVED = movedInto(nodeId, c.target, c.reported);

      beforeEach(() => {
        nodes.place.mockImplementation(() => reply(MOVED));
      });

      it(`moves into the ${Parent.toLowerCase()} the body names, at its end, and answers its new Location`, async () => {
        const answer = await run(
          writes.move(level, scope, into(TARGET_ID), RequestConditions.NONE),
        );
        expect(nodes.place).toHaveBeenCalledWith(TX, level, scope, {
          find: 'path',
          to: 'end',
          toParentId: TARGET_ID,
        });
        expect(sent()).toEqual([['place']]);
        expect(answer.headers).toEqual({
          etag: '"r8"',
          projectRevision: 8,
          location: c.pathIn.target(nodeId),
        });
      });

      it('with a parent id and a position tells the statement both', async () => {
        await run(writes.move(level, scope, into(TARGET_ID, 0), RequestConditions.NONE));
        expect(nodes.place.mock.calls[0][3]).toEqual({
          find: 'path',
          to: 'position',
          toParentId: TARGET_ID,
          position: 0,
        });
      });

      it(`without a ${Parent.toLowerCase()} id nor a position, moves to the end of its own`, async () => {
        nodes.place.mockImplementation(() => reply({ ...MOVED, destination: c.own }));
        const answer = await run(writes.move(level, scope, into(), RequestConditions.NONE));
        expect(nodes.place.mock.calls[0][3]).toEqual({ find: 'path', to: 'end', toParentId: null });
        expect(answer.headers.location).toBe(c.pathIn.own(nodeId));
      });

      it(`a ${Parent.toLowerCase()} id of no ${Parent.toLowerCase()} of the project is ResourceNotFoundError("${Parent}"), whatever If-Match says`, async () => {
        nodes.place.mockImplementation(() =>
          reply({ ...MOVED, destination: undefined, moved: false, siblings: undefined }),
        );
        for (const conditions of [RequestConditions.NONE, ifMatch('"r5"'), ifMatch('"r4"')]) {
          await expectNotFound(run(writes.move(level, scope, into(TARGET_ID), conditions)), Parent);
        }
      });

      it(`a malformed ${Parent.toLowerCase()} id is ResourceNotFoundError("${Parent}") before any database work`, () => {
        for (const id of MALFORMED_IDS) {
          expect(() => writes.move(level, scope, into(id), RequestConditions.NONE)).toThrow(
            expect.objectContaining({ resource: Parent, message: `${Parent} not found` }),
          );
        }
        expect(nodes.place).not.toHaveBeenCalled();
      });
    });

    describe('duplicate', () => {
      const COPIED = copiedInto(c.target, c.reported);
      const copies = (copied: object | undefined, json: string | null = '{"_id":"the copy"}') =>
        nodes.copy.mockImplementation(() => ({
          copied: reply(copied),
          json: reply(json ?? undefined),
        }));
      const copyId = (call = 0): string => nodes.copy.mock.calls[call][3].copyId;

      beforeEach(() => {
        copies(COPIED);
      });

      it(`copies into the ${Parent.toLowerCase()} the body names, at its end (no placement), and answers its Location there`, async () => {
        const answer = await run(
          writes.duplicate(level, scope, into(TARGET_ID), RequestConditions.NONE),
        );
        expect(nodes.copy).toHaveBeenCalledWith(TX, level, scope, {
          copyId: A_NEW_ID,
          toParentId: TARGET_ID,
          maxNodes: 20_000,
          maxTreeBytes: 8 * MiB,
        });
        expect(nodes.place).not.toHaveBeenCalled();
        expect(sent()).toEqual([['copy']]);
        expect(answer.headers).toEqual({
          etag: '"r8"',
          projectRevision: 8,
          location: c.pathIn.target(copyId()),
        });
      });

      it(`naming its own ${Parent.toLowerCase()}, puts the copy right after the original too`, async () => {
        const under = c.scopeUnder(TARGET_ID);
        await run(writes.duplicate(level, under, into(TARGET_ID), RequestConditions.NONE));
        expect(nodes.copy.mock.calls[0][3]).toMatchObject({ toParentId: TARGET_ID });
        expect(nodes.place).toHaveBeenCalledWith(
          TX,
          level,
          { ...under, [c.idParam]: copyId() },
          {
            find: 'id',
            to: 'after',
            toParentId: TARGET_ID,
            afterId: nodeId,
          },
        );
      });

      // Ids are matched as the API gives them out, in lower case (RESOURCE_ID).
      it(`naming a ${Parent.toLowerCase()} id in capitals names no ${Parent.toLowerCase()}: ResourceNotFoundError("${Parent}")`, () => {
        expect(() =>
          writes.duplicate(level, scope, into(TARGET_ID.toUpperCase()), RequestConditions.NONE),
        ).toThrow(expect.objectContaining({ resource: Parent }));
        expect(nodes.copy).not.toHaveBeenCalled();
      });

      it(`puts the copy at the position asked, in the ${Parent.toLowerCase()} named or in its own`, async () => {
        await run(writes.duplicate(level, scope, into(TARGET_ID, 0), RequestConditions.NONE));
        await run(writes.duplicate(level, scope, into(undefined, 2), RequestConditions.NONE));
        expect(nodes.place.mock.calls.map(([, , , placement]) => placement)).toEqual([
          { find: 'id', to: 'position', toParentId: TARGET_ID, position: 0 },
          { find: 'id', to: 'position', toParentId: null, position: 2 },
        ]);
        expect(nodes.place.mock.calls.map(([, , node]) => node[c.idParam])).toEqual([
          copyId(0),
          copyId(1),
        ]);
      });

      it(`a ${Parent.toLowerCase()} id of no ${Parent.toLowerCase()} of the project is ResourceNotFoundError("${Parent}"), whatever If-Match says`, async () => {
        copies({ ...COPIED, copied: false, siblings: undefined, destination: undefined }, null);
        for (const conditions of [RequestConditions.NONE, ifMatch('"r5"'), ifMatch('"r4"')]) {
          await expectNotFound(
            run(writes.duplicate(level, scope, into(TARGET_ID), conditions)),
            Parent,
          );
        }
      });

      it(`a malformed ${Parent.toLowerCase()} id is ResourceNotFoundError("${Parent}") before any database work`, () => {
        for (const id of MALFORMED_IDS) {
          expect(() => writes.duplicate(level, scope, into(id), RequestConditions.NONE)).toThrow(
            expect.objectContaining({ resource: Parent, message: `${Parent} not found` }),
          );
        }
        expect(nodes.copy).not.toHaveBeenCalled();
        expect(nodes.place).not.toHaveBeenCalled();
      });
    });
  });

  describe.each(COUNTED_CASES)('$level, in a parent that holds at most $max', (c) => {
    const { level, scope, nodeId } = c;
    const max = c.max!;
    const body = c.parentMember === undefined ? { position: 0 } : { [c.parentMember]: TARGET_ID };

    it(`a create accepts the ${max}th and refuses the next with LimitExceededError(${max}), from inside the write`, async () => {
      const created = { json: '{}', siblings: max, treeBytes: 1200 };
      nodes.insert.mockImplementationOnce(() => reply(created));
      await expect(run(writes.create(level, c.parentScope, c.createBody))).resolves.toBeDefined();
      nodes.insert.mockImplementationOnce(() => reply({ ...created, siblings: max + 1 }));
      await expect(run(writes.create(level, c.parentScope, c.createBody))).rejects.toMatchObject({
        constructor: LimitExceededError,
        limit: max,
      });
    });

    it(`a move accepts the ${max}th of the target and refuses the next with LimitExceededError(${max})`, async () => {
      const moved = movedInto(nodeId, c.target);
      nodes.place.mockImplementationOnce(() => reply({ ...moved, siblings: max }));
      await expect(
        run(writes.move(level, scope, body, RequestConditions.NONE)),
      ).resolves.toBeDefined();
      nodes.place.mockImplementationOnce(() => reply({ ...moved, siblings: max + 1 }));
      await expect(
        run(writes.move(level, scope, body, RequestConditions.NONE)),
      ).rejects.toMatchObject({
        constructor: LimitExceededError,
        limit: max,
      });
    });

    it(`a copy accepts the ${max}th of the target and refuses the next with LimitExceededError(${max})`, async () => {
      const copied = copiedInto(c.target);
      nodes.copy.mockImplementationOnce(() => ({
        copied: reply({ ...copied, siblings: max }),
        json: reply('{}'),
      }));
      await expect(
        run(writes.duplicate(level, scope, body, RequestConditions.NONE)),
      ).resolves.toBeDefined();
      nodes.copy.mockImplementationOnce(() => ({
        copied: reply({ ...copied, siblings: max + 1 }),
        json: reply('{}'),
      }));
      await expect(
        run(writes.duplicate(level, scope, body, RequestConditions.NONE)),
      ).rejects.toMatchObject({
        constructor: LimitExceededError,
        limit: max,
      });
    });
  });

  describe.each(LEVEL_CASES.filter((c) => c.level !== 'content'))(
    'an update of a $level (its body alone says what it sets)',
    (c) => {
      const { level, scope } = c;
      const UPDATED = {
        previousRevision: 5,
        changed: true,
        json: '{}',
        treeBytes: 1100,
        others: 6,
      };

      beforeEach(() => {
        nodes.update.mockImplementation(() => reply(UPDATED));
        nodes.place.mockImplementation(() => reply(movedInto(c.nodeId, c.own, c.reported)));
      });

      it('is one update statement in the lock’s round, the members left out sent as null (kept), nothing read before it', async () => {
        const work = writes.update(level, scope, c.updateBody, RequestConditions.NONE);
        const answer = runChecking(work, () =>
          expect(nodes.update).toHaveBeenCalledWith(TX, level, scope, c.changes),
        );
        await expect(answer).resolves.toMatchObject({
          headers: { etag: '"r13"', projectRevision: 13 },
        });
        expect(nodes.findColumnContents).not.toHaveBeenCalled();
        expect(sent()).toEqual([['update']]);
      });

      it('with a position, is the update and the placement statement, both in the lock’s round', async () => {
        const body = { ...c.updateBody, position: 0 };
        const work = writes.update(level, scope, body, RequestConditions.NONE);
        const answer = runChecking(work, () => expect(nodes.place).toHaveBeenCalledTimes(1));
        await expect(answer).resolves.toBeDefined();
        expect(sent()).toEqual([['update', 'place']]);
      });

      it('checks If-Match against the tag the statement reports the node had before it ran; on a mismatch the write fails, so what it sent rolls back', async () => {
        const failure = run(
          writes.update(level, scope, { ...c.updateBody, position: 0 }, ifMatch('"r4"')),
        );
        await expect(failure).rejects.toMatchObject({
          constructor: PreconditionFailedError,
          currentTag: '"r5"',
        });
        expect(sent()).toEqual([['update', 'place']]);
      });
    },
  );

  describe('a block', () => {
    const UPDATED = { previousRevision: 5, changed: true, json: '{"_id":"b1"}', treeBytes: 1100 };

    beforeEach(() => {
      nodes.insert.mockImplementation(() => reply({ json: '{}', siblings: 1, treeBytes: 1100 }));
      nodes.update.mockImplementation(() => reply(UPDATED));
    });

    it('is created with the defaults filled into a partial style, members left undefined ignored', async () => {
      const style = Object.assign(new BlockStyleDto(), {
        backgroundColor: '#000',
        opacity: undefined,
      });
      await run(writes.create('block', PROJECT, { description: 'x', style }));
      expect(nodes.insert.mock.calls[0][3]).toEqual({
        description: 'x',
        style: { ...DEFAULT_BLOCK_STYLE, backgroundColor: '#000' },
      });
    });

    it.each([
      ['an empty body', {}, { description: null, style: null }],
      ['the same description', { description: 'Intro' }, { description: 'Intro', style: null }],
      [
        'a whole style',
        { style: { ...DEFAULT_BLOCK_STYLE, opacity: 0.5 } },
        { description: null, style: { ...DEFAULT_BLOCK_STYLE, opacity: 0.5 } },
      ],
    ])(
      'updated with %s, tells the statement what it sets (null: kept), which compares it with what is stored',
      async (_name, body, changes) => {
        await run(writes.update('block', BLOCK, body, RequestConditions.NONE));
        expect(nodes.update).toHaveBeenCalledWith(TX, 'block', BLOCK, changes);
      },
    );

    it('updated with a style, replaces the whole stored style, the members left out taking their defaults', async () => {
      await run(writes.update('block', BLOCK, { style: { opacity: 0.3 } }, RequestConditions.NONE));
      const { style } = nodes.update.mock.calls[0][3];
      expect(style).toEqual({ ...DEFAULT_BLOCK_STYLE, opacity: 0.3 });
      expect(style.backgroundColor).toBe(DEFAULT_BLOCK_STYLE.backgroundColor);
    });

    it('updated with an empty style, resets the stored style to the defaults', async () => {
      await run(writes.update('block', BLOCK, { style: {} }, RequestConditions.NONE));
      expect(nodes.update.mock.calls[0][3].style).toEqual(DEFAULT_BLOCK_STYLE);
    });

    it('moves among the project’s blocks only: the placement names no other parent', async () => {
      nodes.place.mockImplementation(() =>
        reply(movedInto('b1', { id: 'p1', rowId: null, blockId: null })),
      );
      const answer = await run(
        writes.move('block', BLOCK, { position: 0 }, RequestConditions.NONE),
      );
      expect(nodes.place.mock.calls[0][3]).toEqual({
        find: 'path',
        to: 'position',
        toParentId: null,
        position: 0,
      });
      expect(answer.headers.location).toBe('/projects/p1/blocks/b1');
    });
  });

  describe('a row', () => {
    it('is created with the description given, at the position given', async () => {
      nodes.insert.mockImplementation(() => reply({ json: '{}', siblings: 1, treeBytes: 1100 }));
      await run(writes.create('row', BLOCK, { description: 'Top', position: 0 }));
      expect(nodes.insert.mock.calls[0][3]).toEqual({ description: 'Top' });
      expect(nodes.place.mock.calls[0][3]).toMatchObject({ position: 0 });
    });

    it('updated with an empty description, sets it: a change, not "left out"', async () => {
      nodes.update.mockImplementation(() =>
        reply({ previousRevision: 4, changed: true, json: '{}', treeBytes: 1010 }),
      );
      await run(writes.update('row', ROW, { description: '' }, RequestConditions.NONE));
      expect(nodes.update.mock.calls[0][3]).toEqual({ description: '' });
    });
  });

  describe('a column', () => {
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
    /** The column as the find-contents statement reads it under the lock: size 4 beside 6, at 5. */
    const CURRENT = { revision: 5, size: 4, others: 6, contents: [TEXT, EMPTY] };
    /** A `contents` element that sends back a stored content as it was read. */
    const echo = (content: ContentRecord): ColumnContentDto => ({
      _id: content.id,
      type: content.type,
      style: { ...content.style },
      data: { ...content.data },
    });
    const many = (n: number) => Array.from({ length: n }, () => ({ type: 'empty' as const }));

    describe('create', () => {
      const CREATED = { json: '{"_id":"c9"}', others: 6, siblings: 2, treeBytes: 1100 };
      /** The new column's document, read in its round behind the insert of its contents. */
      const FILLED = { revision: 8, json: '{"_id":"c9","contents":[1]}' };
      const newColumn = () => ({ ...ROW, columnId: nodes.insert.mock.calls[0][2].columnId });
      /** The contents the insert was told to make beneath the new column. */
      const contentsSent = () => nodes.insert.mock.calls[0][4].levels.content;

      beforeEach(() => {
        nodes.insert.mockImplementation(() => reply(CREATED));
        nodes.reads.node.column.documentIn.mockImplementation(() => reply(FILLED));
      });

      it('checks the width against the other columns the insert reports', async () => {
        nodes.insert.mockImplementation(() => reply({ ...CREATED, others: 8 }));
        await expect(run(writes.create('column', ROW, { size: 4 }))).resolves.toBeDefined();
        await expect(run(writes.create('column', ROW, { size: 5 }))).rejects.toMatchObject({
          constructor: RowWidthExceededError,
          availableSize: 4,
          requestedSize: 5,
        });
      });

      it('refuses a column that does not fit, with the contents sent in its insert (the write fails, so they roll back)', async () => {
        nodes.insert.mockImplementation(() => reply({ ...CREATED, others: 12 }));
        await expect(
          run(writes.create('column', ROW, { size: 1, contents: [{ type: 'empty' }] })),
        ).rejects.toMatchObject({ constructor: RowWidthExceededError, availableSize: 0 });
        expect(nodes.insert).toHaveBeenCalledTimes(1);
        expect(contentsSent().ids).toHaveLength(1);
      });

      it('writes no contents for a column created without', async () => {
        await run(writes.create('column', ROW, { size: 6 }));
        expect(nodes.insert.mock.calls[0][4]).toEqual(NOTHING_BENEATH);
        expect(nodes.replaceContents).not.toHaveBeenCalled();
        expect(nodes.reads.node.column.documentIn).not.toHaveBeenCalled();
      });

      it('sends its insert (its contents in it) and the read of its document in the lock’s round (its place too), then answers at the revision the lock reports', async () => {
        const work = writes.create('column', ROW, {
          size: 6,
          contents: [{ type: 'empty' }],
          position: 1,
        });
        const answer = runChecking(work, () => {
          expect(nodes.insert).toHaveBeenCalledTimes(1);
          expect(nodes.reads.node.column.documentIn).toHaveBeenCalledTimes(1);
          expect(nodes.place).toHaveBeenCalledTimes(1);
        });
        await expect(answer).resolves.toMatchObject({
          headers: { etag: '"r13"', projectRevision: 13 },
        });
        expect(sent()).toEqual([['insert', 'documentIn', 'place']]);
        expect(nodes.replaceContents).not.toHaveBeenCalled();
      });

      it('writes the composed contents into the new column and answers its document as read after them', async () => {
        const merge = jest.spyOn(ContentComposer.prototype, 'merge');
        const answer = await run(
          writes.create('column', ROW, {
            size: 6,
            contents: [{ type: 'empty' }, { type: 'text', data: { html: '<p>x</p>' } }],
          }),
        );
        expect(merge).toHaveBeenCalledTimes(2);
        expect(merge.mock.calls[0][1]).toBeUndefined();
        const created = newColumn();
        expect(contentsSent()).toEqual({
          ids: [A_NEW_ID, A_NEW_ID],
          parents: [created.columnId, created.columnId],
          keys: [String(SORT_KEY_GAP), String(2 * SORT_KEY_GAP)],
          values: [
            { type: 'empty', style: { ...DEFAULT_CONTENT_STYLE }, data: {} },
            { type: 'text', style: { ...DEFAULT_CONTENT_STYLE }, data: { html: '<p>x</p>' } },
          ],
        });
        expect(nodes.reads.node.column.documentIn).toHaveBeenCalledWith(TX, created);
        expect(answer.body?.text).toBe(FILLED.json);
        expect(answer.headers).toEqual({
          etag: '"r8"',
          projectRevision: 8,
          location: `/projects/p1/blocks/b1/rows/r1/columns/${created.columnId}`,
        });
      });

      it('accepts 1000 contents', async () => {
        await expect(
          run(writes.create('column', ROW, { size: 6, contents: many(1000) })),
        ).resolves.toBeDefined();
        expect(contentsSent().ids).toHaveLength(1000);
        expect(nodes.insert.mock.calls[0][4].nodes).toBe(1001);
      });

      // The contract's part three: the members a read adds are accepted in a create's tree and
      // ignored (every node gets a new id), where a new column's contents refused an `_id` before.
      it('ignores an _id in a new column’s contents: every content is new, with an id of its own', async () => {
        await run(
          writes.create('column', ROW, {
            size: 6,
            contents: [{ type: 'empty' }, { _id: 'ct1', type: 'empty' }] as never,
          }),
        );
        const { ids } = contentsSent();
        expect(ids).toEqual([A_NEW_ID, A_NEW_ID]);
        expect(ids).not.toContain('ct1');
        expect(contentsSent().values[1]).toEqual({
          type: 'empty',
          style: { ...DEFAULT_CONTENT_STYLE },
          data: {},
        });
      });

      it.each([
        [
          '1001 contents, with LimitExceededError(1000) at the 1001st (/contents/1000)',
          { size: 6, contents: many(1001) },
          {
            constructor: RefusedMemberError,
            pointer: '/contents/1000',
            refusal: expect.objectContaining({ constructor: LimitExceededError, limit: 1000 }),
          },
        ],
        [
          'a content’s data over 256 KiB (pointer /contents/<i>/data)',
          {
            size: 6,
            contents: [{ type: 'empty' as const }, { type: 'image' as const, data: OVERSIZED }],
          },
          {
            constructor: RefusedMemberError,
            pointer: '/contents/1/data',
            refusal: expect.objectContaining({
              constructor: ContentTooLargeError,
              pointer: '/contents/1/data',
            }),
          },
        ],
      ])('refuses %s before any database work', (_name, body, failure) => {
        expect(() => writes.create('column', ROW, body)).toThrow(expect.objectContaining(failure));
        expect(nodes.insert).not.toHaveBeenCalled();
      });

      it('refuses a column that takes the tree past 8 MiB, counted with its contents (the insert reports both)', async () => {
        nodes.insert.mockImplementation(() => reply({ ...CREATED, treeBytes: 8 * MiB + 1 }));
        await expect(
          run(writes.create('column', ROW, { size: 6, contents: [{ type: 'empty' }] })),
        ).rejects.toMatchObject({
          constructor: RefusedMemberError,
          pointer: '',
          refusal: expect.objectContaining({ constructor: LimitExceededError, limit: 8 * MiB }),
        });
      });

      it('refuses an empty column that takes the tree past 8 MiB', async () => {
        nodes.insert.mockImplementation(() => reply({ ...CREATED, treeBytes: 8 * MiB + 1 }));
        await expect(run(writes.create('column', ROW, { size: 6 }))).rejects.toBeInstanceOf(
          LimitExceededError,
        );
      });
    });

    describe('update without contents (a resize and/or a move)', () => {
      const RESIZED = {
        previousRevision: 5,
        changed: true,
        json: '{"_id":"c1","size":"5"}',
        treeBytes: 1001,
        others: 6,
      };

      beforeEach(() => {
        nodes.update.mockImplementation(() => reply(RESIZED));
        nodes.place.mockImplementation(() =>
          reply(movedInto('c1', COLUMN_OWN, { size: 4, others: 6 })),
        );
      });

      it('refuses an _id other than the path’s before any database work, and takes its own', async () => {
        expect(() =>
          writes.update('column', COLUMN, { _id: 'c2', size: 5 }, RequestConditions.NONE),
        ).toThrow(
          expect.objectContaining({
            constructor: RequestValidationError,
            errors: [{ pointer: '/_id', detail: expect.any(String) }],
          }),
        );
        expect(nodes.update).not.toHaveBeenCalled();
        const answer = await run(
          writes.update('column', COLUMN, { _id: 'c1', size: 5 }, ifMatch('"r5"')),
        );
        expect(nodes.update).toHaveBeenCalledWith(TX, 'column', COLUMN, { size: 5 });
        expect(answer.body?.text).toBe(RESIZED.json);
        expect(answer.headers).toEqual({ etag: '"r8"', projectRevision: 8 });
      });

      it('checks If-Match before the width', async () => {
        nodes.update.mockImplementation(() => reply({ ...RESIZED, others: 10 }));
        await expect(
          run(writes.update('column', COLUMN, { size: 5 }, ifMatch('"r4"'))),
        ).rejects.toBeInstanceOf(PreconditionFailedError);
      });

      it('checks the width against the other columns the statement reports', async () => {
        nodes.update.mockImplementation(() => reply({ ...RESIZED, others: 8 }));
        await expect(
          run(writes.update('column', COLUMN, { size: 4 }, RequestConditions.NONE)),
        ).resolves.toBeDefined();
        await expect(
          run(writes.update('column', COLUMN, { size: 5 }, RequestConditions.NONE)),
        ).rejects.toMatchObject({
          constructor: RowWidthExceededError,
          availableSize: 4,
          requestedSize: 5,
        });
      });

      it('checks the width before the tree size', async () => {
        nodes.update.mockImplementation(() => reply({ ...RESIZED, others: 8, treeBytes: 9 * MiB }));
        await expect(
          run(writes.update('column', COLUMN, { size: 5 }, RequestConditions.NONE)),
        ).rejects.toBeInstanceOf(RowWidthExceededError);
      });

      it('does not check the width of a move without a size', async () => {
        nodes.update.mockImplementation(() => reply({ ...RESIZED, changed: false, others: 12 }));
        await expect(
          run(writes.update('column', COLUMN, { position: 0 }, RequestConditions.NONE)),
        ).resolves.toBeDefined();
        expect(nodes.update).toHaveBeenCalledWith(TX, 'column', COLUMN, { size: null });
        expect(nodes.place.mock.calls[0][3]).toEqual({
          find: 'path',
          to: 'position',
          toParentId: null,
          position: 0,
        });
      });
    });

    describe('update with contents', () => {
      beforeEach(() => {
        // As pg parses them: fresh objects (JSON, not structuredClone, whose objects Jest gives
        // another realm's prototype, which isDeepStrictEqual would tell apart).
        nodes.findColumnContents.mockImplementation(() =>
          reply({
            ...CURRENT,
            contents: JSON.parse(JSON.stringify(CURRENT.contents)) as ContentRecord[],
          }),
        );
        nodes.replaceContents.mockImplementation(() => reply(1200));
        // As the update statement reports on that column (size 4 beside 6, at revision 5), after
        // any statement before it: changed only when its size is; the project's size only then.
        nodes.update.mockImplementation((_round, _level, _scope, { size }) => {
          const resized = size !== null && size !== CURRENT.size;
          return reply({
            previousRevision: 5,
            changed: resized,
            json: `{"_id":"c1","size":"${size ?? CURRENT.size}"}`,
            treeBytes: resized ? 1000 : undefined,
            others: 6,
          });
        });
        nodes.place.mockImplementation(() =>
          reply(movedInto('c1', COLUMN_OWN, { size: 4, others: 6 })),
        );
      });

      it('reads the column with its contents in the lock’s round, and writes once both have answered', async () => {
        const work = writes.update('column', COLUMN, { contents: [] }, RequestConditions.NONE);
        const answer = runChecking(work, () => {
          expect(nodes.findColumnContents).toHaveBeenCalledWith(TX, COLUMN);
          expect(nodes.replaceContents).not.toHaveBeenCalled();
        });
        await expect(answer).resolves.toMatchObject({
          headers: { etag: '"r13"', projectRevision: 13 },
        });
        expect(sent()).toEqual([['findColumnContents'], ['replaceContents', 'update']]);
      });

      it('prepares the contents (sanitising) before the lock, and merges none after a failed If-Match', async () => {
        const prepare = jest.spyOn(composer, 'prepare');
        const merge = jest.spyOn(composer, 'merge');
        const work = writes.update(
          'column',
          COLUMN,
          { contents: [{ type: 'empty' }] },
          ifMatch('"r4"'),
        );
        // The elements' own work is done by the time the write locks the project.
        expect(prepare).toHaveBeenCalledTimes(1);
        await expect(run(work)).rejects.toMatchObject({
          constructor: PreconditionFailedError,
          currentTag: '"r5"',
        });
        expect(nodes.findColumnContents).toHaveBeenCalledWith(TX, COLUMN);
        expect(merge).not.toHaveBeenCalled();
        expect(sent()).toEqual([['findColumnContents']]);
      });

      it('checks If-Match before the contents are validated', async () => {
        await expect(
          run(
            writes.update(
              'column',
              COLUMN,
              { contents: [{ _id: 'nope', type: 'empty' }] },
              ifMatch('"r4"'),
            ),
          ),
        ).rejects.toBeInstanceOf(PreconditionFailedError);
      });

      it('a missing column is ResourceNotFoundError', async () => {
        nodes.findColumnContents.mockImplementation(() => reply(undefined));
        await expectNotFound(
          run(writes.update('column', COLUMN, { contents: [] }, RequestConditions.NONE)),
          'Column',
        );
      });

      it('updates listed contents in place (with their current state), creates the others, in order, its size and place as they are behind them', async () => {
        const merge = jest.spyOn(composer, 'merge');
        const answer = await run(
          writes.update(
            'column',
            COLUMN,
            {
              contents: [
                { type: 'quote' },
                { _id: 'ct2', type: 'empty' },
                { _id: 'ct1', type: 'text', style: { opacity: 0.2 } },
              ],
            },
            ifMatch('"r5"'),
          ),
        );
        expect(merge.mock.calls.map(([, current]) => current?.id)).toEqual([
          undefined,
          'ct2',
          'ct1',
        ]);
        expect(merge.mock.calls[2][1]).toEqual(TEXT);
        expect(nodes.replaceContents).toHaveBeenCalledWith(TX, COLUMN, [
          { type: 'quote', style: { ...DEFAULT_CONTENT_STYLE }, data: {} },
          { id: 'ct2', type: 'empty', style: EMPTY.style, data: {} },
          {
            id: 'ct1',
            type: 'text',
            style: { ...DEFAULT_CONTENT_STYLE, opacity: 0.2 },
            data: TEXT.data,
          },
        ]);
        expect(nodes.update).toHaveBeenCalledWith(TX, 'column', COLUMN, { size: null });
        expect(nodes.place).not.toHaveBeenCalled();
        expect(answer.body?.text).toBe('{"_id":"c1","size":"4"}');
        expect(answer.headers).toEqual({ etag: '"r8"', projectRevision: 8 });
      });

      it('an empty list deletes every content', async () => {
        await run(writes.update('column', COLUMN, { contents: [] }, RequestConditions.NONE));
        expect(nodes.replaceContents).toHaveBeenCalledWith(TX, COLUMN, []);
        expect(nodes.update).toHaveBeenCalledWith(TX, 'column', COLUMN, { size: null });
      });

      it.each([
        [
          'an _id that is not one of the column’s contents (pointer /contents/<i>/_id)',
          [echo(TEXT), { _id: 'ct-of-another-column', type: 'empty' as const }],
          { pointer: '/contents/1/_id', detail: expect.stringContaining('not the id') },
        ],
        [
          'an _id listed twice (pointer of the second one)',
          [echo(TEXT), echo(EMPTY), echo(TEXT)],
          { pointer: '/contents/2/_id', detail: 'is listed twice' },
        ],
      ])('refuses %s, writing nothing', async (_name, contents, error) => {
        await expect(
          run(writes.update('column', COLUMN, { contents }, RequestConditions.NONE)),
        ).rejects.toMatchObject({ constructor: RequestValidationError, errors: [error] });
        expect(nodes.replaceContents).not.toHaveBeenCalled();
        expect(nodes.update).not.toHaveBeenCalled();
      });

      it('refuses a content’s data over 256 KiB (pointer /contents/<i>/data) before any database work', () => {
        const contents = [echo(TEXT), { _id: 'ct2', type: 'image' as const, data: OVERSIZED }];
        expect(() => writes.update('column', COLUMN, { contents }, RequestConditions.NONE)).toThrow(
          expect.objectContaining({
            constructor: ContentTooLargeError,
            pointer: '/contents/1/data',
          }),
        );
        expect(nodes.findColumnContents).not.toHaveBeenCalled();
      });

      it('accepts 1000 contents and refuses 1001 with LimitExceededError(1000) before any database work', async () => {
        await expect(
          run(writes.update('column', COLUMN, { contents: many(1000) }, RequestConditions.NONE)),
        ).resolves.toBeDefined();
        nodes.findColumnContents.mockClear();
        expect(() =>
          writes.update('column', COLUMN, { contents: many(1001) }, RequestConditions.NONE),
        ).toThrow(expect.objectContaining({ constructor: LimitExceededError, limit: 1000 }));
        expect(nodes.findColumnContents).not.toHaveBeenCalled();
      });

      it('checks the width of a new size against the other columns read under the lock, before writing', async () => {
        await expect(
          run(writes.update('column', COLUMN, { size: 7, contents: [] }, RequestConditions.NONE)),
        ).rejects.toMatchObject({ constructor: RowWidthExceededError, availableSize: 6 });
        expect(nodes.replaceContents).not.toHaveBeenCalled();
        expect(sent()).toEqual([['findColumnContents']]);
        await expect(
          run(writes.update('column', COLUMN, { size: 6, contents: [] }, RequestConditions.NONE)),
        ).resolves.toBeDefined();
        expect(nodes.update).toHaveBeenCalledWith(TX, 'column', COLUMN, { size: 6 });
      });

      it('validates the contents before the width', async () => {
        await expect(
          run(
            writes.update(
              'column',
              COLUMN,
              { size: 12, contents: [{ _id: 'nope', type: 'empty' }] },
              RequestConditions.NONE,
            ),
          ),
        ).rejects.toBeInstanceOf(RequestValidationError);
      });

      it('moves with its placement statement in the round of its contents', async () => {
        await run(
          writes.update(
            'column',
            COLUMN,
            { contents: [echo(TEXT)], position: 0 },
            RequestConditions.NONE,
          ),
        );
        expect(nodes.place).toHaveBeenCalledWith(TX, 'column', COLUMN, {
          find: 'path',
          to: 'position',
          toParentId: null,
          position: 0,
        });
        expect(sent()).toEqual([['findColumnContents'], ['replaceContents', 'update', 'place']]);
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
        'with %s writes no contents and answers the column at the current revision (an update that changes nothing)',
        async (_name, size, body) => {
          const answer = await run(writes.update('column', COLUMN, body, ifMatch('"r5"')));
          expect(nodes.replaceContents).not.toHaveBeenCalled();
          expect(nodes.update).toHaveBeenCalledTimes(1);
          expect(nodes.update).toHaveBeenCalledWith(TX, 'column', COLUMN, { size });
          expect(sent()).toEqual([['findColumnContents'], ['update']]);
          expect(answer.body?.text).toBe('{"_id":"c1","size":"4"}');
          expect(answer.headers).toEqual({ etag: '"r5"', projectRevision: 7 });
        },
      );

      it('checks If-Match before telling a resize from new contents', async () => {
        await expect(
          run(
            writes.update(
              'column',
              COLUMN,
              { size: 3, contents: [echo(TEXT), echo(EMPTY)] },
              ifMatch('"r4"'),
            ),
          ),
        ).rejects.toMatchObject({ constructor: PreconditionFailedError, currentTag: '"r5"' });
        expect(nodes.update).not.toHaveBeenCalled();
        expect(nodes.replaceContents).not.toHaveBeenCalled();
      });

      it.each([
        ['another order', { contents: [echo(EMPTY), echo(TEXT)] }],
        ['one content fewer', { contents: [echo(TEXT)] }],
        ['one content more', { contents: [echo(TEXT), echo(EMPTY), { type: 'empty' as const }] }],
        [
          'a changed content',
          { contents: [echo(TEXT), { ...echo(EMPTY), type: 'quote' as const }] },
        ],
        [
          'a changed content and a new size',
          { size: 3, contents: [echo(TEXT), { ...echo(EMPTY), type: 'quote' as const }] },
        ],
      ])(
        'with %s writes the contents at revision 8, its size and place behind them',
        async (_name, body) => {
          const answer = await run(writes.update('column', COLUMN, body, RequestConditions.NONE));
          expect(nodes.replaceContents).toHaveBeenCalledTimes(1);
          expect(nodes.update).toHaveBeenCalledTimes(1);
          expect(nodes.update).toHaveBeenCalledWith(TX, 'column', COLUMN, {
            size: 'size' in body ? body.size : null,
          });
          expect(sent()).toEqual([['findColumnContents'], ['replaceContents', 'update']]);
          expect(answer.headers).toEqual({ etag: '"r8"', projectRevision: 8 });
        },
      );

      it('a new size with the contents as they are is a resize alone, so the contents list’s tag does not move', async () => {
        const answer = await run(
          writes.update(
            'column',
            COLUMN,
            { size: 3, contents: [echo(TEXT), echo(EMPTY)] },
            ifMatch('"r5"'),
          ),
        );
        expect(nodes.replaceContents).not.toHaveBeenCalled();
        expect(nodes.update).toHaveBeenCalledTimes(1);
        expect(nodes.update).toHaveBeenCalledWith(TX, 'column', COLUMN, { size: 3 });
        expect(answer.body?.text).toBe('{"_id":"c1","size":"3"}');
        expect(answer.headers).toEqual({ etag: '"r8"', projectRevision: 8 });
      });

      it('a new size with the contents as they are is checked against the width the update reports', async () => {
        await expect(
          run(
            writes.update(
              'column',
              COLUMN,
              { size: 7, contents: [echo(TEXT), echo(EMPTY)] },
              RequestConditions.NONE,
            ),
          ),
        ).rejects.toMatchObject({ constructor: RowWidthExceededError, availableSize: 6 });
        expect(nodes.replaceContents).not.toHaveBeenCalled();
      });

      // A node that moves takes the write's revision as its tag (README, "A moved node takes a
      // new tag"), whether a move or an update with `position` moved it.
      it('a move alone, with the contents sent back as read, writes no contents and takes the move’s revision as its tag', async () => {
        const answer = await run(
          writes.update(
            'column',
            COLUMN,
            { contents: [echo(TEXT), echo(EMPTY)], position: 0 },
            RequestConditions.NONE,
          ),
        );
        expect(nodes.replaceContents).not.toHaveBeenCalled();
        expect(nodes.update).toHaveBeenCalledWith(TX, 'column', COLUMN, { size: null });
        expect(nodes.place).toHaveBeenCalledWith(TX, 'column', COLUMN, {
          find: 'path',
          to: 'position',
          toParentId: null,
          position: 0,
        });
        expect(sent()).toEqual([['findColumnContents'], ['update', 'place']]);
        expect(answer.headers).toEqual({ etag: '"r8"', projectRevision: 8 });
      });

      it('refuses new contents that take the tree past 8 MiB, as the statement that wrote them reports it', async () => {
        nodes.replaceContents.mockImplementation(() => reply(8 * MiB + 1));
        await expect(
          run(writes.update('column', COLUMN, { contents: [] }, RequestConditions.NONE)),
        ).rejects.toMatchObject({ constructor: LimitExceededError, limit: 8 * MiB });
      });

      it('with a new size too, counts the tree the update behind the contents reports', async () => {
        nodes.replaceContents.mockImplementation(() => reply(1000));
        nodes.update.mockImplementation(() =>
          reply({
            previousRevision: 5,
            changed: true,
            json: '{}',
            treeBytes: 8 * MiB + 1,
            others: 6,
          }),
        );
        await expect(
          run(writes.update('column', COLUMN, { size: 3, contents: [] }, RequestConditions.NONE)),
        ).rejects.toMatchObject({ constructor: LimitExceededError, limit: 8 * MiB });
      });

      it('accepts new contents that shrink a tree the lock found above 8 MiB', async () => {
        nodes.replaceContents.mockImplementation(() => reply(9 * MiB - 100));
        await expect(
          run(writes.update('column', COLUMN, { contents: [] }, RequestConditions.NONE), {
            ...LOCKED,
            treeBytes: 9 * MiB,
          }),
        ).resolves.toBeDefined();
      });
    });

    describe('moved or copied into another row', () => {
      const body = { rowId: TARGET_ID };
      const TARGET = { id: TARGET_ID, rowId: null, blockId: 'b2' };

      it('refuses a move into a row without room for its size with RowWidthExceededError(availableSize), not one that fills it', async () => {
        const moved = movedInto('c1', TARGET, { size: 4, others: 8 });
        nodes.place.mockImplementationOnce(() => reply(moved));
        await expect(
          run(writes.move('column', COLUMN, body, RequestConditions.NONE)),
        ).resolves.toBeDefined();
        nodes.place.mockImplementationOnce(() => reply({ ...moved, others: 9 }));
        await expect(
          run(writes.move('column', COLUMN, body, RequestConditions.NONE)),
        ).rejects.toMatchObject({
          constructor: RowWidthExceededError,
          availableSize: 3,
          requestedSize: 4,
        });
      });

      it('checks the width of a move before the tree size', async () => {
        nodes.place.mockImplementation(() =>
          reply(movedInto('c1', TARGET, { size: 4, others: 9, treeBytes: 9 * MiB })),
        );
        await expect(
          run(writes.move('column', COLUMN, body, RequestConditions.NONE)),
        ).rejects.toBeInstanceOf(RowWidthExceededError);
      });

      it('a copy that does not fit its row is RowWidthExceededError(availableSize), not one that fills it', async () => {
        const copied = copiedInto(TARGET, { size: 4, others: 8 });
        nodes.copy.mockImplementationOnce(() => ({ copied: reply(copied), json: reply('{}') }));
        await expect(
          run(writes.duplicate('column', COLUMN, body, RequestConditions.NONE)),
        ).resolves.toBeDefined();
        // The statement copies nothing then; the service says why.
        nodes.copy.mockImplementationOnce(() => ({
          copied: reply({ ...copied, others: 9, copied: false, siblings: undefined }),
          json: reply(undefined),
        }));
        await expect(
          run(writes.duplicate('column', COLUMN, body, RequestConditions.NONE)),
        ).rejects.toMatchObject({
          constructor: RowWidthExceededError,
          availableSize: 3,
          requestedSize: 4,
        });
      });
    });
  });

  describe('a content', () => {
    const UPDATED = {
      previousRevision: 5,
      changed: true,
      json: '{"_id":"ct1","type":"text"}',
      treeBytes: 1050,
    };

    describe('create', () => {
      it('composes the body (defaults, sanitising) and inserts what the composer made', async () => {
        nodes.insert.mockImplementation(() => reply({ json: '{}', siblings: 1, treeBytes: 1100 }));
        const compose = jest.spyOn(ContentComposer.prototype, 'compose');
        await run(
          writes.create('content', COLUMN, {
            type: 'text',
            data: { html: '<p>a<script>x</script></p>' },
          }),
        );
        expect(compose).toHaveBeenCalledWith({
          type: 'text',
          data: { html: '<p>a<script>x</script></p>' },
        });
        expect(nodes.insert.mock.calls[0][3]).toEqual({
          type: 'text',
          style: { ...DEFAULT_CONTENT_STYLE },
          data: { html: '<p>a</p>' },
        });
      });

      it('refuses data over 256 KiB with ContentTooLargeError (pointer /data) before any database work', () => {
        expect(() => writes.create('content', COLUMN, { type: 'image', data: OVERSIZED })).toThrow(
          expect.objectContaining({ constructor: ContentTooLargeError, pointer: '/data' }),
        );
        expect(nodes.insert).not.toHaveBeenCalled();
      });
    });

    describe('update (one statement: the members left out are kept, or reset by it when the type changes)', () => {
      beforeEach(() => {
        nodes.update.mockImplementation(() => reply(UPDATED));
        nodes.place.mockImplementation(() =>
          reply(movedInto('ct1', { id: 'c1', rowId: 'r1', blockId: 'b1' })),
        );
      });

      it('refuses an _id other than the path’s before any database work, and takes its own', async () => {
        expect(() =>
          writes.update('content', CONTENT, { _id: 'other', type: 'text' }, RequestConditions.NONE),
        ).toThrow(
          expect.objectContaining({
            constructor: RequestValidationError,
            errors: [{ pointer: '/_id', detail: expect.any(String) }],
          }),
        );
        expect(nodes.update).not.toHaveBeenCalled();
        await expect(
          run(
            writes.update('content', CONTENT, { _id: 'ct1', type: 'text' }, RequestConditions.NONE),
          ),
        ).resolves.toBeDefined();
      });

      it('sends its update in the lock’s round, nothing read before it', async () => {
        const work = writes.update('content', CONTENT, { type: 'quote' }, RequestConditions.NONE);
        const answer = runChecking(work, () =>
          expect(nodes.update).toHaveBeenCalledWith(TX, 'content', CONTENT, {
            type: 'quote',
            style: null,
            data: null,
          }),
        );
        await expect(answer).resolves.toMatchObject({
          headers: { etag: '"r13"', projectRevision: 13 },
        });
        expect(sent()).toEqual([['update']]);
      });

      it('with a position, sends the placement statement in the round of the update', async () => {
        await run(
          writes.update('content', CONTENT, { type: 'text', position: 0 }, RequestConditions.NONE),
        );
        expect(sent()).toEqual([['update', 'place']]);
      });

      it('checks If-Match against the content’s tag before the update, which rolls back', async () => {
        await expect(
          run(writes.update('content', CONTENT, { type: 'quote', position: 0 }, ifMatch('"r4"'))),
        ).rejects.toMatchObject({ constructor: PreconditionFailedError, currentTag: '"r5"' });
      });

      it('prepares the body before the lock (sanitising), and merges nothing: the statement keeps what is left out', async () => {
        const prepare = jest.spyOn(ContentComposer.prototype, 'prepare');
        const merge = jest.spyOn(ContentComposer.prototype, 'merge');
        const body = { type: 'text' as const, style: { opacity: 1 } };
        const work = writes.update('content', CONTENT, body, RequestConditions.NONE);
        // Sanitising (the costly part) is done by the time the write locks the project.
        expect(prepare).toHaveBeenCalledTimes(1);
        expect(prepare).toHaveBeenCalledWith(body);
        await run(work);
        expect(merge).not.toHaveBeenCalled();
        expect(nodes.update).toHaveBeenCalledWith(TX, 'content', CONTENT, {
          type: 'text',
          style: { ...DEFAULT_CONTENT_STYLE, opacity: 1 },
          data: null,
        });
      });

      it('answers the content at its tag r5 and revision 7 when the statement reports no change', async () => {
        nodes.update.mockImplementation(() =>
          reply({
            previousRevision: 5,
            changed: false,
            json: '{"_id":"ct1"}',
            treeBytes: undefined,
          }),
        );
        const answer = await run(
          writes.update('content', CONTENT, { type: 'text' }, ifMatch('"r5"')),
        );
        expect(answer.body?.text).toBe('{"_id":"ct1"}');
        expect(answer.headers).toEqual({ etag: '"r5"', projectRevision: 7 });
      });

      it('a change sends the data given, sanitised, and answers etag "r8"', async () => {
        const answer = await run(
          writes.update(
            'content',
            CONTENT,
            { type: 'text', data: { html: '<p>Bye<script>x</script></p>' } },
            RequestConditions.NONE,
          ),
        );
        expect(nodes.update).toHaveBeenCalledWith(TX, 'content', CONTENT, {
          type: 'text',
          style: null,
          data: { html: '<p>Bye</p>' },
        });
        expect(answer.body?.text).toBe(UPDATED.json);
        expect(answer.headers).toEqual({ etag: '"r8"', projectRevision: 8 });
      });

      it('a style given replaces the stored one, with the defaults filled in', async () => {
        await run(
          writes.update(
            'content',
            CONTENT,
            { type: 'text', style: { backgroundSize: 'contain' } },
            RequestConditions.NONE,
          ),
        );
        expect(nodes.update.mock.calls[0][3].style).toEqual({
          ...DEFAULT_CONTENT_STYLE,
          backgroundSize: 'contain',
        });
      });

      it('a move alone places it in the round of the update, and takes the write’s revision as its tag', async () => {
        nodes.update.mockImplementation(() =>
          reply({
            previousRevision: 5,
            changed: false,
            json: '{"_id":"ct1"}',
            treeBytes: undefined,
          }),
        );
        const answer = await run(
          writes.update('content', CONTENT, { type: 'text', position: 0 }, RequestConditions.NONE),
        );
        expect(nodes.place).toHaveBeenCalledWith(TX, 'content', CONTENT, {
          find: 'path',
          to: 'position',
          toParentId: null,
          position: 0,
        });
        expect(answer.headers).toEqual({ etag: '"r8"', projectRevision: 8 });
      });

      it('refuses data over 256 KiB with ContentTooLargeError before any database work', () => {
        expect(() =>
          writes.update(
            'content',
            CONTENT,
            { type: 'image', data: OVERSIZED },
            RequestConditions.NONE,
          ),
        ).toThrow(expect.objectContaining({ constructor: ContentTooLargeError, pointer: '/data' }));
        expect(nodes.update).not.toHaveBeenCalled();
      });
    });
  });
  describe('updates of members alone, several in one statement', () => {
    const OTHER = { ...CONTENT, contentId: 'ct2' };
    const THIRD = { ...CONTENT, contentId: 'ct3' };
    const text = (html: string) => ({ type: 'text' as const, data: { html } });
    const updatesOf = (...scopes: (typeof CONTENT)[]) =>
      scopes.map((scope, i) =>
        writes.memberUpdate('content', scope, text(`<p>${i}</p>`), RequestConditions.NONE)!,
      );
    /** What the statement reports of a content it changed, the tree at `treeBytes` after it. */
    const changedTo = (treeBytes: number) => ({
      previousRevision: 5,
      changed: true,
      json: `{"bytes":${treeBytes}}`,
      treeBytes,
    });

    it('is what `update` would check, for an update without a place, a column’s contents or size', () => {
      const update = writes.memberUpdate(
        'content',
        CONTENT,
        text('<p>x<script></script></p>'),
        ifMatch('"r5"'),
      );
      expect(update).toMatchObject({
        level: 'content',
        scope: CONTENT,
        changes: { type: 'text', style: null, data: { html: '<p>x</p>' } },
      });
      expect(
        writes.memberUpdate(
          'content',
          CONTENT,
          { type: 'text', position: 0 },
          RequestConditions.NONE,
        ),
      ).toBeUndefined();
      expect(
        writes.memberUpdate('column', COLUMN, { size: 4 }, RequestConditions.NONE),
      ).toBeUndefined();
      expect(
        writes.memberUpdate('column', COLUMN, { contents: [] }, RequestConditions.NONE),
      ).toBeUndefined();
      expect(() =>
        writes.memberUpdate(
          'content',
          CONTENT,
          { type: 'image', data: OVERSIZED },
          RequestConditions.NONE,
        ),
      ).toThrow(expect.objectContaining({ constructor: ContentTooLargeError }));
    });

    it('sends one statement in the lock’s round, and answers each in order at the write’s revision', async () => {
      nodes.updateEach.mockImplementation(() => reply([changedTo(1100), changedTo(1200)]));
      const updates = updatesOf(CONTENT, OTHER);
      const settled = await runWrite(writes.updateEach(updates), { project: LATE_LOCK }, () =>
        expect(nodes.updateEach).toHaveBeenCalledWith(TX, 'content', CONTENT.projectId, updates),
      );
      expect(sent()).toEqual([['updateEach']]);
      expect(settled.map((s) => ('answer' in s ? s.answer.body?.text : s.refusal))).toEqual([
        '{"bytes":1100}',
        '{"bytes":1200}',
      ]);
      expect(settled.map((s) => 'answer' in s && s.answer.headers)).toEqual([
        { etag: '"r13"', projectRevision: 13 },
        { etag: '"r13"', projectRevision: 13 },
      ]);
    });

    it('ends with the first refusal, each checked as if alone: its node, If-Match, the tree’s size right after it', async () => {
      const updates = updatesOf(CONTENT, OTHER, THIRD);
      const outcomes = async (reported: unknown[], conditions?: RequestConditions) => {
        nodes.updateEach.mockImplementation(() => reply(reported));
        const sentUpdates = conditions
          ? updates.map((u, i) => (i === 1 ? { ...u, conditions } : u))
          : updates;
        const settled = await runWrite(writes.updateEach(sentUpdates));
        return settled.map((s) => ('answer' in s ? 'answered' : s.refusal));
      };
      expect(await outcomes([changedTo(1100), undefined, changedTo(1200)])).toEqual([
        'answered',
        expect.objectContaining({ constructor: ResourceNotFoundError }),
      ]);
      expect(
        await outcomes([changedTo(1100), changedTo(1200), changedTo(1300)], ifMatch('"r4"')),
      ).toEqual([
        'answered',
        expect.objectContaining({ constructor: PreconditionFailedError, currentTag: '"r5"' }),
      ]);
      // Past 8 MiB right after the second, though the third takes the tree back under it.
      expect(await outcomes([changedTo(1100), changedTo(8 * MiB + 1), changedTo(1000)])).toEqual([
        'answered',
        expect.objectContaining({ constructor: LimitExceededError }),
      ]);
    });

    it('answers an update that changed nothing at its node’s tag and the current revision', async () => {
      nodes.updateEach.mockImplementation(() =>
        reply([
          { previousRevision: 5, changed: false, json: '{}', treeBytes: undefined },
          changedTo(1100),
        ]),
      );
      const [kept, changed] = await runWrite(writes.updateEach(updatesOf(CONTENT, OTHER)));
      expect('answer' in kept && kept.answer.headers).toEqual({ etag: '"r5"', projectRevision: 7 });
      expect('answer' in changed && changed.answer.headers).toEqual({
        etag: '"r8"',
        projectRevision: 8,
      });
    });

    it('refuses, as the defect it would be, updates of one node twice or of two levels', () => {
      expect(() => writes.updateEach(updatesOf(CONTENT, CONTENT))).toThrow(TypeError);
      const block = writes.memberUpdate(
        'block',
        BLOCK,
        { description: 'x' },
        RequestConditions.NONE,
      )!;
      expect(() =>
        writes.updateEach([...updatesOf(CONTENT), block] as MemberUpdate<'content'>[]),
      ).toThrow(TypeError);
      expect(nodes.updateEach).not.toHaveBeenCalled();
    });
  });
});
