import { jest } from '@jest/globals';
import { type BatchOperationDto } from '@layout/contracts';
import {
  LimitExceededError,
  PreconditionFailedError,
  RequestValidationError,
  ResourceNotFoundError,
} from '../../common/errors';
import { BatchOperationFailedError, RowWidthExceededError } from '../errors';
import { RequestConditions } from '../../common/http/request-conditions';
import { Representation } from '../../common/http/representation';
import { type Step } from '../../database/unit-of-work';
import { type LockedRound } from '../locked-round';
import {
  A_NEW_ID,
  IDEMPOTENT,
  ifMatch,
  lockFinds,
  type WriterMock,
  writerMock,
  ANY_ASSETS,
} from '../../../../../test/support/layout-service-fakes';
import { BatchService } from './batch.service';
import { answerNode } from './node-answers';
import { type MemberUpdate, type NodeWrites, type Settled } from './node-writes';
import { type TreeWriter } from './tree-writer';

// A batch (BatchService) with its node writes mocked: each operation is the unit of work a
// mocked NodeWrites method returns, and the TreeWriter is faked as it runs a write (runWrite:
// the lock finds the project at revision 7, so a write makes 8). What is under test is how the
// batch reads its operations, runs them in order, tells whose refusal it is, and answers.

const PROJECT_ID = '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a80';
const BLOCK_ID = '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a81';
const ROW_ID = '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a82';
const SCOPE = { accountId: 'acc-1', projectId: PROJECT_ID };
const P = `/projects/${PROJECT_ID}`;
const B = `${P}/blocks/${BLOCK_ID}`;
const R = `${B}/rows/${ROW_ID}`;

type Work = (write: LockedRound) => Step<Representation<unknown>>;
type EachWork = (write: LockedRound) => Step<Settled<unknown>[]>;
type MethodMock = jest.Mock<(...args: any[]) => Work>;

/**
 * NodeWrites, mocked: each method answers the work a test gives it. `memberUpdate` finds no
 * update of members alone unless a test says otherwise, so that updates go through `update`.
 */
const writesMock = () => ({
  create: jest.fn() as MethodMock,
  update: jest.fn() as MethodMock,
  memberUpdate: jest.fn(
    (
      _level: string,
      _scope: object,
      _body: object,
      _conditions: object,
    ): MemberUpdate | undefined => undefined,
  ),
  updateMembers: jest.fn() as MethodMock,
  updateEach: jest.fn() as jest.Mock<(...args: any[]) => EachWork>,
  delete: jest.fn() as MethodMock,
  move: jest.fn() as MethodMock,
  duplicate: jest.fn() as MethodMock,
});

/** What a create answers: the new node at the write's revision 8, with its Location. */
const CREATED = answerNode('{"_id":"new"}', 8, 8, `${P}/blocks/new`);
/** What an update answers that changed its node: its tag r8, revision 8. */
const CHANGED = answerNode('{"_id":"changed"}', 8, 8);
/** What an update answers that changed nothing: the node's tag r5, the current revision 7. */
const UNCHANGED = answerNode('{"_id":"kept"}', 5, 7);
/** What a delete answers: no body, revision 8. */
const DELETED = Representation.empty({ projectRevision: 8 });

describe('BatchService', () => {
  let writer: WriterMock;
  let writes: ReturnType<typeof writesMock>;
  let service: BatchService;
  /** What the operations' rules did, in the order they ran. */
  let ruled: string[];

  /** A work of one round whose rules note `name` and answer `answer`. */
  const answering =
    (name: string, answer: Representation<unknown>): Work =>
    (write) =>
      write.finish(() => {
        ruled.push(name);
        return answer;
      });
  /** A work of one round whose rules refuse with `refusal`. */
  const refusing =
    (name: string, refusal: Error): Work =>
    (write) =>
      write.finish(() => {
        ruled.push(name);
        throw refusal;
      });
  /** A work that reads, then writes: its rules run in its second round. */
  const inTwoRounds =
    (name: string, answer: Representation<unknown> | Error): Work =>
    (write) =>
      write.next((round) =>
        round.finish(() => {
          ruled.push(name);
          if (answer instanceof Error) throw answer;
          return answer;
        }),
      );

  const apply = (
    operations: BatchOperationDto[],
    conditions = RequestConditions.NONE,
  ): Promise<Representation<unknown>> => service.apply(SCOPE, { operations }, conditions);

  /** What `answer` fails with (it must fail). */
  async function failureOf(answer: Promise<unknown>): Promise<BatchOperationFailedError> {
    const failure = await answer.then(
      () => new Error('the batch succeeded'),
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(BatchOperationFailedError);
    return failure as BatchOperationFailedError;
  }

  beforeEach(() => {
    writer = writerMock();
    writes = writesMock();
    service = new BatchService(
      writer as unknown as TreeWriter,
      writes as unknown as NodeWrites,
      ANY_ASSETS,
    );
    ruled = [];
    writes.create.mockImplementation(() => answering('create', CREATED));
    writes.update.mockImplementation(() => answering('update', CHANGED));
    writes.delete.mockImplementation(() => answering('delete', DELETED));
    writes.move.mockImplementation(() => answering('move', CHANGED));
    writes.duplicate.mockImplementation(() => answering('duplicate', CREATED));
  });

  describe('runs each operation as the node write of its route', () => {
    it('as one write of the project, recorded as `batch`, answered 200, with its Idempotency-Key', async () => {
      await service.apply(
        SCOPE,
        { operations: [{ method: 'PUT', path: B, body: { description: 'x' } }] },
        RequestConditions.NONE,
        IDEMPOTENT,
      );
      expect(writer.write).toHaveBeenCalledTimes(1);
      expect(writer.write).toHaveBeenCalledWith(
        SCOPE,
        { operation: 'batch', path: P, least: 'editor' },
        expect.any(Function),
        IDEMPOTENT,
        200,
      );
    });

    it('each with its level, the ids of its path, its validated body, its own If-Match, and the id a create makes', async () => {
      await apply([
        { method: 'POST', path: `${P}/blocks`, body: { description: 'Intro', position: 0 } },
        { method: 'PUT', path: R, body: { description: 'New' }, ifMatch: '"r5"' },
        { method: 'DELETE', path: R },
        { method: 'POST', path: `${R}/move`, body: { blockId: BLOCK_ID } },
        { method: 'POST', path: `${B}/duplicate`, body: {} },
      ]);
      const row = { ...SCOPE, blockId: BLOCK_ID, rowId: ROW_ID };
      expect(writes.create).toHaveBeenCalledWith(
        'block',
        SCOPE,
        { description: 'Intro', position: 0 },
        A_NEW_ID,
      );
      expect(writes.update).toHaveBeenCalledWith(
        'row',
        row,
        { description: 'New' },
        expect.any(RequestConditions),
      );
      const conditions = writes.update.mock.calls[0][3] as RequestConditions;
      expect(() => conditions.assertPreconditions('"r5"')).not.toThrow();
      expect(() => conditions.assertPreconditions('"r6"')).toThrow(PreconditionFailedError);
      expect(writes.delete).toHaveBeenCalledWith('row', row, expect.any(RequestConditions));
      expect(writes.move).toHaveBeenCalledWith(
        'row',
        row,
        { blockId: BLOCK_ID },
        expect.any(RequestConditions),
      );
      expect(writes.duplicate).toHaveBeenCalledWith(
        'block',
        { ...SCOPE, blockId: BLOCK_ID },
        {},
        expect.any(RequestConditions),
        A_NEW_ID,
      );
      // Without ifMatch, an operation is unconditional.
      const unconditional = writes.delete.mock.calls[0][2] as RequestConditions;
      expect(() => unconditional.assertPreconditions('"r1"')).not.toThrow();
      expect(ruled).toEqual(['create', 'update', 'delete', 'move', 'duplicate']);
    });

    it('names by its ref the node a create or a copy made, in later paths and bodies', async () => {
      await apply([
        { method: 'POST', path: `${P}/blocks`, body: { description: 'x' }, ref: 'block' },
        { method: 'POST', path: `${P}/blocks/$block/rows`, body: {}, ref: 'row' },
        { method: 'POST', path: `${B}/rows/${ROW_ID}/duplicate`, body: {}, ref: 'copy' },
        { method: 'POST', path: `${P}/blocks/$block/rows/$copy/move`, body: { blockId: '$block' } },
        { method: 'PUT', path: `${P}/blocks/$block/rows/$row`, body: { description: 'y' } },
      ]);
      const block = writes.create.mock.calls[0][3] as string;
      const row = writes.create.mock.calls[1][3] as string;
      const copy = writes.duplicate.mock.calls[0][4] as string;
      expect(new Set([block, row, copy]).size).toBe(3);
      expect(writes.create.mock.calls[1].slice(0, 2)).toEqual([
        'row',
        { ...SCOPE, blockId: block },
      ]);
      expect(writes.move.mock.calls[0].slice(0, 3)).toEqual([
        'row',
        { ...SCOPE, blockId: block, rowId: copy },
        { blockId: block },
      ]);
      expect(writes.update.mock.calls[0][1]).toEqual({ ...SCOPE, blockId: block, rowId: row });
    });
  });

  describe('refusals', () => {
    it('an operation’s refusal is its own problem with its index, and nothing after it rules', async () => {
      const width = new RowWidthExceededError(2, 3, 12);
      writes.update
        .mockImplementationOnce(() => answering('update 0', CHANGED))
        .mockImplementationOnce(() => refusing('update 1', width));
      const failure = await failureOf(
        apply([
          { method: 'PUT', path: B, body: { description: 'a' } },
          { method: 'PUT', path: R, body: { description: 'b' } },
          { method: 'DELETE', path: R },
        ]),
      );
      expect(failure.operationIndex).toBe(1);
      expect(failure.refusal).toBe(width);
      expect(ruled).toEqual(['update 0', 'update 1']);
    });

    it('an earlier operation’s refusal at its turn wins over a later one’s refusal found in planning', async () => {
      const limit = new LimitExceededError(500, 'A block holds at most 500');
      writes.create.mockImplementationOnce(() => refusing('create 0', limit));
      const failure = await failureOf(
        apply([
          { method: 'POST', path: `${B}/rows`, body: {} },
          // A column without its size: refused by its body's validation, before the lock.
          { method: 'POST', path: `${R}/columns`, body: {} },
        ]),
      );
      expect(failure.operationIndex).toBe(0);
      expect(failure.refusal).toBe(limit);
      // The batch went to the lock all the same: the later refusal waited for its turn.
      expect(writer.write).toHaveBeenCalledTimes(1);
    });

    it('a later operation’s planning refusal is answered at its turn, once the ones before it passed', async () => {
      const failure = await failureOf(
        apply([
          { method: 'POST', path: `${B}/rows`, body: {} },
          { method: 'POST', path: `${R}/columns`, body: {} },
        ]),
      );
      expect(failure.operationIndex).toBe(1);
      expect(failure.refusal).toMatchObject({
        constructor: RequestValidationError,
        errors: [{ pointer: '/size', detail: 'is required' }],
      });
      expect(ruled).toEqual(['create']);
      expect(writes.create).toHaveBeenCalledTimes(1);
    });

    it('attributes a refusal in a later round to its operation, and one after it to the next', async () => {
      const gone = new ResourceNotFoundError('Content');
      writes.update.mockImplementationOnce(() => inTwoRounds('update 0', CHANGED));
      writes.update.mockImplementationOnce(() => refusing('update 1', gone));
      const second = await failureOf(
        apply([
          { method: 'PUT', path: R, body: { description: 'a' } },
          { method: 'PUT', path: R, body: { description: 'b' } },
        ]),
      );
      expect(second.operationIndex).toBe(1);
      expect(second.refusal).toBe(gone);

      writes.update.mockImplementationOnce(() => inTwoRounds('update 0', gone));
      const first = await failureOf(
        apply([
          { method: 'PUT', path: R, body: { description: 'a' } },
          { method: 'PUT', path: R, body: { description: 'b' } },
        ]),
      );
      expect(first.operationIndex).toBe(0);
      expect(first.refusal).toBe(gone);
    });

    it('attributes a refusal thrown while an operation sends (before its rules) to it', async () => {
      const failing = new Error('sent on a round that is over');
      writes.delete.mockImplementationOnce(() => () => {
        throw failing;
      });
      const failure = await failureOf(
        apply([
          { method: 'PUT', path: R, body: { description: 'a' } },
          { method: 'DELETE', path: R },
        ]),
      );
      expect(failure.operationIndex).toBe(1);
      expect(failure.refusal).toBe(failing);
    });

    it('attributes a refusal thrown while an operation is planned (a write refusing its body) to it', async () => {
      const refusal = new RequestValidationError([{ pointer: '/_id', detail: 'is not the id' }]);
      writes.update.mockImplementationOnce(() => {
        throw refusal;
      });
      const failure = await failureOf(apply([{ method: 'PUT', path: R, body: {} }]));
      expect(failure.operationIndex).toBe(0);
      expect(failure.refusal).toBe(refusal);
    });

    it.each([
      [
        'a path no route of a batch takes',
        { method: 'POST', path: `${P}/revisions/2/restore` },
        RequestValidationError,
        { errors: [{ pointer: '/operations/1/path', detail: expect.any(String) }] },
      ],
      [
        'a path in another project',
        { method: 'DELETE', path: `/projects/${BLOCK_ID}/blocks/${BLOCK_ID}` },
        RequestValidationError,
        {
          errors: [
            { pointer: '/operations/1/path', detail: 'must be a path inside the batch’s project' },
          ],
        },
      ],
      [
        'a $ref no earlier operation made, in the path',
        { method: 'DELETE', path: `${P}/blocks/$nope` },
        RequestValidationError,
        { errors: [{ pointer: '/operations/1/path', detail: expect.stringContaining('$nope') }] },
      ],
      [
        'a $ref no earlier operation made, in the body',
        { method: 'POST', path: `${R}/move`, body: { blockId: '$nope' } },
        RequestValidationError,
        { errors: [{ pointer: '/operations/1/body/blockId', detail: expect.any(String) }] },
      ],
      [
        'an id of the wrong shape',
        { method: 'DELETE', path: `${P}/blocks/b1` },
        ResourceNotFoundError,
        { resource: 'Block' },
      ],
      [
        'a body its route refuses',
        { method: 'PUT', path: R, body: { description: 5 } },
        RequestValidationError,
        { errors: [{ pointer: '/description', detail: expect.any(String) }] },
      ],
      [
        'a ref on an update',
        { method: 'PUT', path: R, body: {}, ref: 'r' },
        RequestValidationError,
        { errors: [{ pointer: '/operations/1/ref', detail: expect.any(String) }] },
      ],
    ])('%s is refused at its turn, with its index', async (_name, operation, type, members) => {
      const failure = await failureOf(
        apply([
          { method: 'PUT', path: B, body: { description: 'a' } },
          operation as BatchOperationDto,
          { method: 'DELETE', path: B },
        ]),
      );
      expect(failure.operationIndex).toBe(1);
      expect(failure.refusal).toBeInstanceOf(type);
      expect(failure.refusal).toMatchObject(members);
      expect(ruled).toEqual(['update']);
    });

    it('compares If-Match with the project’s current tag before any operation’s rules', async () => {
      await expect(
        apply([{ method: 'PUT', path: B, body: {} }], ifMatch('"r6"')),
      ).rejects.toMatchObject({ constructor: PreconditionFailedError, currentTag: '"r7"' });
      expect(ruled).toEqual([]);
      await expect(
        apply([{ method: 'PUT', path: B, body: {} }], ifMatch('"r7"')),
      ).resolves.toBeDefined();
      expect(ruled).toEqual(['update']);
    });
  });

  describe('updates of members alone, one after another', () => {
    const CONTENT_ID = '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a90';
    const OTHER_ID = '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a91';
    const C = `${R}/columns/0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a83/contents`;
    const put = (id: string, html: string): BatchOperationDto => ({
      method: 'PUT',
      path: `${C}/${id}`,
      body: { type: 'text', data: { html } },
    });
    /** What updateEach was given, by call: the ids of the contents and their html. */
    const eachCalls = () =>
      writes.updateEach.mock.calls.map(([updates]) =>
        (updates as MemberUpdate<'content'>[]).map(
          ({ scope, changes }) => `${scope.contentId}:${(changes.data as { html: string }).html}`,
        ),
      );

    beforeEach(() => {
      writes.memberUpdate.mockImplementation(
        (level, scope, body, conditions) =>
          ({ level, scope, changes: body, conditions }) as unknown as MemberUpdate,
      );
      writes.updateMembers.mockImplementation(() => answering('one update', CHANGED));
      writes.updateEach.mockImplementation(
        (updates: MemberUpdate[]) => (write) =>
          write.finish(() => {
            ruled.push(`${updates.length} updates`);
            return updates.map(() => ({ answer: CHANGED }));
          }),
      );
    });

    it('run as one statement when their nodes differ, each answered 200 in its place', async () => {
      const answer = await apply([put(CONTENT_ID, 'a'), put(OTHER_ID, 'b')]);
      expect(eachCalls()).toEqual([[`${CONTENT_ID}:a`, `${OTHER_ID}:b`]]);
      expect(writes.update).not.toHaveBeenCalled();
      expect(ruled).toEqual(['2 updates']);
      const { results } = JSON.parse(answer.body!.text) as { results: { status: number }[] };
      expect(results.map(({ status }) => status)).toEqual([200, 200]);
    });

    it('break where a node comes again, where another operation comes between, and where the level changes', async () => {
      writes.memberUpdate.mockImplementation((level, scope, body, conditions) =>
        level === 'content'
          ? ({ level, scope, changes: body, conditions } as unknown as MemberUpdate)
          : undefined,
      );
      await apply([
        put(CONTENT_ID, 'a'),
        put(OTHER_ID, 'b'),
        put(CONTENT_ID, 'c'),
        { method: 'DELETE', path: `${C}/${OTHER_ID}` },
        put(OTHER_ID, 'd'),
        put(CONTENT_ID, 'e'),
        { method: 'PUT', path: R, body: { description: 'row' } },
        put(CONTENT_ID, 'f'),
      ]);
      expect(eachCalls()).toEqual([
        [`${CONTENT_ID}:a`, `${OTHER_ID}:b`],
        [`${OTHER_ID}:d`, `${CONTENT_ID}:e`],
      ]);
      expect(ruled).toEqual([
        '2 updates',
        'one update',
        'delete',
        '2 updates',
        'update',
        'one update',
      ]);
    });

    it('tell a refusal of one of them as its own, with its index, and rule nothing after it', async () => {
      const stale = new PreconditionFailedError('"r5"');
      writes.updateEach.mockImplementation(
        () => (write) =>
          write.finish(() => {
            ruled.push('3 updates');
            return [{ answer: CHANGED }, { refusal: stale }];
          }),
      );
      const failure = await failureOf(
        apply([
          { method: 'DELETE', path: R },
          put(CONTENT_ID, 'a'),
          put(OTHER_ID, 'b'),
          put('0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a92', 'c'),
          { method: 'DELETE', path: B },
        ]),
      );
      expect(failure.operationIndex).toBe(2);
      expect(failure.refusal).toBe(stale);
      expect(ruled).toEqual(['delete', '3 updates']);
    });

    it('tell a failure of their statement as the first one’s', async () => {
      const failing = new Error('sent on a round that is over');
      writes.updateEach.mockImplementation(() => () => {
        throw failing;
      });
      const failure = await failureOf(
        apply([{ method: 'DELETE', path: R }, put(CONTENT_ID, 'a'), put(OTHER_ID, 'b')]),
      );
      expect(failure.operationIndex).toBe(1);
      expect(failure.refusal).toBe(failing);
    });
  });

  describe('its answer', () => {
    it('is the revision the batch made when any operation wrote, as its tag and Project-Revision', async () => {
      writes.update.mockImplementationOnce(() => answering('update', UNCHANGED));
      const answer = await apply([
        { method: 'PUT', path: B, body: {} },
        { method: 'DELETE', path: R },
      ]);
      expect(answer.headers).toEqual({ etag: '"r8"', projectRevision: 8 });
      expect(JSON.parse(answer.body!.text)).toMatchObject({ revision: 8 });
    });

    it('is the current revision when no operation changed anything', async () => {
      writes.update.mockImplementation(() => answering('update', UNCHANGED));
      lockFinds(writer, { revision: 13, currentRevision: 12 });
      const answer = await apply([
        { method: 'PUT', path: B, body: {} },
        { method: 'PUT', path: R, body: {} },
      ]);
      expect(answer.headers).toEqual({ etag: '"r12"', projectRevision: 12 });
      expect(JSON.parse(answer.body!.text)).toMatchObject({ revision: 12 });
    });

    it('lists what each operation alone would have answered: status, Location, tag, and its body as built (none for a 204)', async () => {
      writes.update.mockImplementationOnce(() => answering('update', UNCHANGED));
      writes.move.mockImplementationOnce(() => inTwoRounds('move', CHANGED));
      const answer = await apply([
        { method: 'POST', path: `${P}/blocks`, body: { description: 'x' } },
        { method: 'PUT', path: B, body: {} },
        { method: 'POST', path: `${R}/move`, body: { position: 0 } },
        { method: 'DELETE', path: R },
      ]);
      expect(answer.body!.text).toBe(
        '{"revision":8,"results":[' +
          `{"status":201,"location":"${P}/blocks/new","etag":"\\"r8\\"","body":{"_id":"new"}},` +
          '{"status":200,"etag":"\\"r5\\"","body":{"_id":"kept"}},' +
          '{"status":200,"etag":"\\"r8\\"","body":{"_id":"changed"}},' +
          '{"status":204}]}',
      );
      const parsed = JSON.parse(answer.body!.text) as { results: object[] };
      expect(parsed.results[3]).toEqual({ status: 204 });
      expect(ruled).toEqual(['create', 'update', 'move', 'delete']);
    });
  });
});
