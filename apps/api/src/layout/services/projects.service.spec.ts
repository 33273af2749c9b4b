import { jest } from '@jest/globals';
import { DEFAULT_BLOCK_STYLE, PROJECTS_PER_ACCOUNT_MAX } from '@layout/contracts';
import {
  AuthenticationRequiredError,
  LimitExceededError,
  PreconditionFailedError,
  RequestValidationError,
  ResourceNotFoundError,
} from '../../common/errors';
import { RefusedMemberError, RowWidthExceededError } from '../errors';
import { RequestConditions } from '../../common/http/request-conditions';
import { type Database } from '../../database/database';
import { type Work } from '../../database/unit-of-work';
import { type ProjectScope } from '../layout.scopes';
import { projectListTag } from '../layout.tags';
import { encodeProjectListCursor } from '../project-list-cursor';
import { type IdempotencyKeysRepository } from '../repositories/idempotency-keys.repository';
import { type ProjectsRepository } from '../repositories/projects.repository';
import {
  A_NEW_ID,
  expectNotFound,
  IDEMPOTENT,
  ifMatch,
  ifNoneMatch,
  lockFinds,
  lockFindsNoProject,
  MiB,
  PROJECT,
  readsMock,
  reply,
  runTransaction,
  TX,
  type WriterMock,
  writerMock,
  ANY_ASSETS,
} from '../../../../../test/support/layout-service-fakes';
import { ProjectsService } from './projects.service';
import { type TreeWriter } from './tree-writer';

const PROJECT_JSON = '{"_id":"p1","title":"Old","revision":7,"blocks":[]}';

function repositoryMock() {
  return {
    reads: { project: readsMock<ProjectScope>() },
    page: jest.fn<ProjectsRepository['page']>(),
    pageDigest: jest.fn<ProjectsRepository['pageDigest']>(),
    insert: jest.fn<ProjectsRepository['insert']>(),
    retitle: jest.fn<ProjectsRepository['retitle']>(),
    delete: jest.fn<ProjectsRepository['delete']>(),
    copy: jest.fn<ProjectsRepository['copy']>(),
  };
}

function keysMock() {
  return {
    claim: jest.fn<IdempotencyKeysRepository['claim']>(),
    find: jest.fn<IdempotencyKeysRepository['find']>(),
    remember: jest.fn<IdempotencyKeysRepository['remember']>(),
  };
}

describe('ProjectsService', () => {
  let repository: ReturnType<typeof repositoryMock>;
  let keys: ReturnType<typeof keysMock>;
  let db: { transaction: jest.Mock<(work: Work<unknown>, group?: string) => Promise<unknown>> };
  let writer: WriterMock;
  let service: ProjectsService;

  beforeEach(() => {
    repository = repositoryMock();
    keys = keysMock();
    db = { transaction: jest.fn((work) => runTransaction(work)) };
    writer = writerMock();
    service = new ProjectsService(
      db as unknown as Database,
      writer as unknown as TreeWriter,
      repository as unknown as ProjectsRepository,
      keys,
      ANY_ASSETS,
    );
  });

  describe('list', () => {
    const LAST = {
      createdAt: '2026-11-22T10:15:30.123000Z',
      id: '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a87',
    };
    const PAGE = { digest: 'abc', more: false, json: '[{"_id":"p1"}]', last: LAST };
    const tagOf = (page: { limit: number; after?: typeof LAST; more: boolean }) =>
      projectListTag({ digest: 'abc', ...page });

    it('without a query reads every project (as many as an account may hold) once, tagged, without a next cursor', async () => {
      repository.page.mockResolvedValue(PAGE);
      const answer = await service.list('acc-1', {}, RequestConditions.NONE);
      expect(repository.pageDigest).not.toHaveBeenCalled();
      expect(repository.page).toHaveBeenCalledTimes(1);
      expect(repository.page).toHaveBeenCalledWith(db, {
        accountId: 'acc-1',
        limit: PROJECTS_PER_ACCOUNT_MAX,
      });
      expect(answer.limit).toBe(PROJECTS_PER_ACCOUNT_MAX);
      expect(answer.next).toBeUndefined();
      expect(answer.representation.notModified).toBe(false);
      expect(answer.representation.body?.text).toBe(PAGE.json);
      expect(answer.representation.headers).toEqual({
        etag: tagOf({ limit: PROJECTS_PER_ACCOUNT_MAX, more: false }),
      });
      expect(answer.representation.headers.etag).toMatch(/^"p[0-9a-f]{32}"$/);
    });

    it('gives the cursor of the last project when more follow, and reads after a cursor', async () => {
      repository.page.mockResolvedValue({ ...PAGE, more: true });
      const first = await service.list('acc-1', { limit: 1 }, RequestConditions.NONE);
      expect(first.next).toBe(encodeProjectListCursor('acc-1', LAST));
      repository.page.mockResolvedValue({ digest: 'abc', more: false, json: '[]' });
      const second = await service.list(
        'acc-1',
        { limit: 1, cursor: first.next },
        RequestConditions.NONE,
      );
      expect(repository.page).toHaveBeenLastCalledWith(db, {
        accountId: 'acc-1',
        limit: 1,
        after: LAST,
      });
      expect(second.next).toBeUndefined();
      // Same items digest, other parameters: another tag.
      expect(second.representation.headers.etag).not.toBe(first.representation.headers.etag);
    });

    it("refuses another account's cursor at /cursor, before reading anything", async () => {
      const cursor = encodeProjectListCursor('acc-2', LAST);
      const refused = service.list('acc-1', { cursor }, RequestConditions.NONE);
      await expect(refused).rejects.toBeInstanceOf(RequestValidationError);
      await expect(refused).rejects.toMatchObject({
        errors: [{ pointer: '/cursor', detail: expect.any(String) }],
      });
      expect(repository.page).not.toHaveBeenCalled();
      expect(repository.pageDigest).not.toHaveBeenCalled();
    });

    it('with the current tag in If-None-Match reads only the digest and answers 304', async () => {
      repository.pageDigest.mockResolvedValue({ digest: 'abc', more: true });
      const tag = tagOf({ limit: 2, more: true });
      const answer = await service.list('acc-1', { limit: 2 }, ifNoneMatch(tag));
      expect(repository.pageDigest).toHaveBeenCalledWith(db, { accountId: 'acc-1', limit: 2 });
      expect(repository.page).not.toHaveBeenCalled();
      expect(answer.representation.notModified).toBe(true);
      expect(answer.representation.body).toBeUndefined();
      expect(answer.representation.headers).toEqual({ etag: tag });
    });

    it('with a tag of the page before a next page appeared, reads the page', async () => {
      repository.pageDigest.mockResolvedValue({ digest: 'abc', more: true });
      repository.page.mockResolvedValue({ ...PAGE, more: true });
      const old = tagOf({ limit: 2, more: false });
      const answer = await service.list('acc-1', { limit: 2 }, ifNoneMatch(old));
      expect(answer.representation.notModified).toBe(false);
      expect(answer.representation.body?.text).toBe(PAGE.json);
      expect(answer.next).toBeDefined();
    });
  });

  describe('retrieve', () => {
    const FOUND = { revision: 7, json: PROJECT_JSON };

    it('without If-None-Match reads the document once (never the revision alone)', async () => {
      repository.reads.project.document.mockResolvedValue(FOUND);
      const answer = await service.retrieve(PROJECT, RequestConditions.NONE);
      expect(repository.reads.project.revision).not.toHaveBeenCalled();
      expect(repository.reads.project.document).toHaveBeenCalledTimes(1);
      expect(repository.reads.project.document).toHaveBeenCalledWith(db, PROJECT);
      expect(answer.notModified).toBe(false);
      expect(answer.body?.text).toBe(PROJECT_JSON);
      expect(answer.headers).toEqual({ etag: '"r7"' });
    });

    it('with the current tag in If-None-Match answers 304 without building the document', async () => {
      repository.reads.project.revision.mockResolvedValue(7);
      const answer = await service.retrieve(PROJECT, ifNoneMatch('"r6", "r7"'));
      expect(repository.reads.project.revision).toHaveBeenCalledWith(db, PROJECT);
      expect(repository.reads.project.document).not.toHaveBeenCalled();
      expect(answer.notModified).toBe(true);
      expect(answer.headers).toEqual({ etag: '"r7"' });
    });

    it('with * in If-None-Match answers 304 for an existing project', async () => {
      repository.reads.project.revision.mockResolvedValue(3);
      const answer = await service.retrieve(PROJECT, ifNoneMatch('*'));
      expect(answer.notModified).toBe(true);
      expect(answer.headers.etag).toBe('"r3"');
      expect(repository.reads.project.document).not.toHaveBeenCalled();
    });

    it('with an old tag in If-None-Match reads and answers the document at the revision it found', async () => {
      repository.reads.project.revision.mockResolvedValue(7);
      repository.reads.project.documentAt.mockResolvedValue(FOUND);
      const answer = await service.retrieve(PROJECT, ifNoneMatch('"r6"'));
      expect(repository.reads.project.documentAt).toHaveBeenCalledWith(db, PROJECT, 7);
      expect(repository.reads.project.document).not.toHaveBeenCalled();
      expect(answer.notModified).toBe(false);
      expect(answer.body?.text).toBe(PROJECT_JSON);
      expect(answer.headers.etag).toBe('"r7"');
    });

    describe('as an export (format=portable)', () => {
      const READ = {
        revision: 7,
        json: JSON.stringify({
          _id: 'p1',
          title: 'Old',
          revision: 7,
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-02T00:00:00.000Z',
          blocks: [],
        }),
      };

      it('answers the document without the members a read adds, under a tag of its own', async () => {
        repository.reads.project.document.mockResolvedValue(READ);
        const answer = await service.retrieve(PROJECT, RequestConditions.NONE, 'portable');
        expect(repository.reads.project.document).toHaveBeenCalledWith(db, PROJECT);
        expect(answer.body?.text).toBe('{"title":"Old","blocks":[]}');
        expect(answer.headers).toEqual({ etag: '"r7-portable"' });
      });

      it('answers 304 to its own tag only, not to the read’s', async () => {
        repository.reads.project.revision.mockResolvedValue(7);
        repository.reads.project.documentAt.mockResolvedValue(READ);
        const kept = await service.retrieve(PROJECT, ifNoneMatch('"r7-portable"'), 'portable');
        expect(kept.notModified).toBe(true);
        expect(kept.headers).toEqual({ etag: '"r7-portable"' });
        const read = await service.retrieve(PROJECT, ifNoneMatch('"r7"'), 'portable');
        expect(read.notModified).toBe(false);
        expect(read.body?.text).toBe('{"title":"Old","blocks":[]}');
        // And the read answers no 304 to the export's tag.
        const plain = await service.retrieve(PROJECT, ifNoneMatch('"r7-portable"'));
        expect(plain.notModified).toBe(false);
        expect(plain.headers).toEqual({ etag: '"r7"' });
      });

      it('is ResourceNotFoundError for a missing project', async () => {
        repository.reads.project.document.mockResolvedValue(undefined);
        await expectNotFound(
          service.retrieve(PROJECT, RequestConditions.NONE, 'portable'),
          'Project',
        );
      });
    });

    it('throws ResourceNotFoundError for a missing project, with or without If-None-Match', async () => {
      repository.reads.project.revision.mockResolvedValue(undefined);
      repository.reads.project.document.mockResolvedValue(undefined);
      await expectNotFound(service.retrieve(PROJECT, RequestConditions.NONE), 'Project');
      await expectNotFound(service.retrieve(PROJECT, ifNoneMatch('*')), 'Project');
    });
  });

  describe('create', () => {
    const CREATED = { json: '{"_id":"p9"}', projects: 10, treeBytes: 100 };
    /** The id the create made for its project. */
    const newProjectId = (): string => repository.insert.mock.calls[0][1].projectId;

    it('inserts in a transaction and answers the project at revision 1 with its Location', async () => {
      repository.insert.mockImplementation(() => reply(CREATED));
      const answer = await service.create('acc-1', { title: 'New' });
      expect(db.transaction).toHaveBeenCalledTimes(1);
      expect(repository.insert).toHaveBeenCalledWith(
        TX,
        { accountId: 'acc-1', projectId: A_NEW_ID, title: 'New' },
        { nodes: 1, levels: {} },
      );
      expect(repository.reads.project.documentIn).not.toHaveBeenCalled();
      expect(answer.body?.text).toBe(CREATED.json);
      expect(answer.headers).toEqual({
        etag: '"r1"',
        projectRevision: 1,
        location: `/projects/${newProjectId()}`,
      });
    });

    it('gives every new project an id of its own', async () => {
      repository.insert.mockImplementation(() => reply(CREATED));
      await service.create('acc-1', { title: 'New' });
      await service.create('acc-1', { title: 'New' });
      const [first, second] = repository.insert.mock.calls.map(([, project]) => project.projectId);
      expect(first).not.toBe(second);
    });

    describe('with the blocks its body gives (a read or an export posted back)', () => {
      const DOCUMENT = { revision: 1, json: '{"_id":"p9","blocks":[1]}' };
      const BODY = {
        title: 'New',
        blocks: [{ description: 'Intro', rows: [{ columns: [{ size: 6 }] }] }],
      };

      beforeEach(() => {
        repository.insert.mockImplementation(() => reply(CREATED));
        repository.reads.project.documentIn.mockImplementation(() => reply(DOCUMENT));
      });

      it('inserts them with it, reads its document in the same round, and answers that document', async () => {
        const answer = await service.create('acc-1', BODY);
        const projectId = newProjectId();
        const subtree = repository.insert.mock.calls[0][2]!;
        expect(subtree.nodes).toBe(4);
        expect(subtree.levels.block).toMatchObject({
          ids: [A_NEW_ID],
          parents: [projectId],
          values: [{ description: 'Intro', style: DEFAULT_BLOCK_STYLE }],
        });
        expect(subtree.levels.row?.parents).toEqual(subtree.levels.block?.ids);
        expect(subtree.levels.column?.parents).toEqual(subtree.levels.row?.ids);
        expect(repository.reads.project.documentIn).toHaveBeenCalledWith(TX, {
          accountId: 'acc-1',
          projectId,
        });
        expect(answer.body?.text).toBe(DOCUMENT.json);
        expect(answer.headers).toEqual({
          etag: '"r1"',
          projectRevision: 1,
          location: `/projects/${projectId}`,
        });
      });

      it('refuses a tree past 8 MiB as a whole (pointer ""), inside the transaction; accepts one of 8 MiB', async () => {
        repository.insert.mockImplementation(() => reply({ ...CREATED, treeBytes: 8 * MiB }));
        await expect(service.create('acc-1', BODY)).resolves.toBeDefined();
        repository.insert.mockImplementation(() => reply({ ...CREATED, treeBytes: 8 * MiB + 1 }));
        const failure = service.create('acc-1', BODY);
        await expect(failure).rejects.toMatchObject({
          constructor: RefusedMemberError,
          pointer: '',
          refusal: expect.objectContaining({ constructor: LimitExceededError, limit: 8 * MiB }),
        });
        await expect(db.transaction.mock.results[1].value).rejects.toBeInstanceOf(
          RefusedMemberError,
        );
      });

      it('refuses a node that breaks its rule with its pointer, before any transaction', async () => {
        const body = {
          title: 'New',
          blocks: [{ description: 'Intro', rows: [{ columns: [{ size: 6 }, { size: 7 }] }] }],
        };
        await expect(service.create('acc-1', body)).rejects.toMatchObject({
          constructor: RefusedMemberError,
          pointer: '/blocks/0/rows/0/columns/1/size',
          refusal: expect.objectContaining({
            constructor: RowWidthExceededError,
            availableSize: 6,
          }),
        });
        expect(db.transaction).not.toHaveBeenCalled();
      });
    });

    it('accepts the 10 000th project of an account', async () => {
      repository.insert.mockImplementation(() => reply({ ...CREATED, projects: 10_000 }));
      await expect(service.create('acc-1', { title: 'New' })).resolves.toBeDefined();
    });

    it('refuses the 10 001st with LimitExceededError(10000), inside the transaction', async () => {
      repository.insert.mockImplementation(() => reply({ ...CREATED, projects: 10_001 }));
      const failure = service.create('acc-1', { title: 'New' });
      await expect(failure).rejects.toBeInstanceOf(LimitExceededError);
      await expect(failure).rejects.toMatchObject({ limit: 10_000 });
      // Thrown from the work, so the transaction rolls the insert back.
      await expect(db.transaction.mock.results[0].value).rejects.toBeInstanceOf(LimitExceededError);
    });

    it('an account deleted since its token was checked gets no project: AuthenticationRequiredError', async () => {
      repository.insert.mockImplementation(() => reply(undefined));
      await expect(service.create('acc-1', { title: 'New' })).rejects.toMatchObject({
        constructor: AuthenticationRequiredError,
        bearerError: 'invalid_token',
      });
    });
  });

  describe('update', () => {
    it('compares If-Match with the revision read under the lock and changes nothing on a mismatch', async () => {
      const failure = service.update(PROJECT, { title: 'New' }, ifMatch('"r6"'));
      await expect(failure).rejects.toBeInstanceOf(PreconditionFailedError);
      await expect(failure).rejects.toMatchObject({ currentTag: '"r7"' });
      expect(writer.write).toHaveBeenCalledWith(
        PROJECT,
        expect.objectContaining({ operation: 'project.update' }),
        expect.any(Function),
      );
      expect(repository.retitle).not.toHaveBeenCalled();
    });

    it('checks If-Match even when the title is unchanged', async () => {
      await expect(
        service.update(PROJECT, { title: 'Old' }, ifMatch('"r6"')),
      ).rejects.toBeInstanceOf(PreconditionFailedError);
      expect(repository.reads.project.documentIn).not.toHaveBeenCalled();
    });

    it('retitles at the new revision when If-Match names the current tag', async () => {
      repository.retitle.mockImplementation(() =>
        reply({ json: '{"title":"New"}', treeBytes: 1010 }),
      );
      const answer = await service.update(PROJECT, { title: 'New' }, ifMatch('"r7"'));
      expect(repository.retitle).toHaveBeenCalledWith(TX, PROJECT, 'New');
      expect(answer.body?.text).toBe('{"title":"New"}');
      expect(answer.headers).toEqual({ etag: '"r8"', projectRevision: 8 });
    });

    it.each([
      ['the same title', { title: 'Old' }],
      ['no title', {}],
    ])('with %s changes nothing and answers the current document', async (_name, body) => {
      repository.reads.project.documentIn.mockImplementation(() =>
        reply({ revision: 7, json: PROJECT_JSON }),
      );
      const answer = await service.update(PROJECT, body, RequestConditions.NONE);
      expect(repository.retitle).not.toHaveBeenCalled();
      expect(repository.reads.project.documentIn).toHaveBeenCalledWith(TX, PROJECT);
      expect(answer.body?.text).toBe(PROJECT_JSON);
      expect(answer.headers).toEqual({ etag: '"r7"', projectRevision: 7 });
    });

    it('compares the title with the one the lock read', async () => {
      lockFinds(writer, { title: 'New' });
      repository.reads.project.documentIn.mockImplementation(() =>
        reply({ revision: 7, json: PROJECT_JSON }),
      );
      await service.update(PROJECT, { title: 'New' }, RequestConditions.NONE);
      expect(repository.retitle).not.toHaveBeenCalled();
    });

    it('retitles nothing when the lock finds no project of the account’s', async () => {
      lockFindsNoProject(writer);
      await expectNotFound(
        service.update(PROJECT, { title: 'New' }, RequestConditions.NONE),
        'Project',
      );
      expect(repository.retitle).not.toHaveBeenCalled();
      expect(repository.reads.project.documentIn).not.toHaveBeenCalled();
    });

    it('refuses a title that takes the tree past 8 MiB', async () => {
      repository.retitle.mockImplementation(() => reply({ json: '{}', treeBytes: 8 * MiB + 1 }));
      await expect(
        service.update(PROJECT, { title: 'x'.repeat(100) }, RequestConditions.NONE),
      ).rejects.toMatchObject({ constructor: LimitExceededError, limit: 8 * MiB });
    });

    it('accepts a title that shrinks a tree already above 8 MiB', async () => {
      lockFinds(writer, { treeBytes: 9 * MiB });
      repository.retitle.mockImplementation(() => reply({ json: '{}', treeBytes: 9 * MiB - 5 }));
      await expect(
        service.update(PROJECT, { title: 'x' }, RequestConditions.NONE),
      ).resolves.toBeDefined();
    });
  });

  describe('delete', () => {
    it('deletes and answers no body with the new revision', async () => {
      const answer = await service.delete(PROJECT, ifMatch('"r7"'));
      expect(repository.delete).toHaveBeenCalledWith(TX, PROJECT);
      expect(answer.body).toBeUndefined();
      expect(answer.notModified).toBe(false);
      expect(answer.headers).toEqual({ projectRevision: 8 });
    });

    it('deletes nothing when If-Match names another revision', async () => {
      const failure = service.delete(PROJECT, ifMatch('"r6"'));
      await expect(failure).rejects.toMatchObject({
        constructor: PreconditionFailedError,
        currentTag: '"r7"',
      });
      expect(repository.delete).not.toHaveBeenCalled();
    });

    it('deletes nothing when the lock finds no project of the account’s', async () => {
      lockFindsNoProject(writer);
      await expectNotFound(service.delete(PROJECT, RequestConditions.NONE), 'Project');
      expect(repository.delete).not.toHaveBeenCalled();
    });

    it('lets the TreeWriter report a missing project (404)', async () => {
      writer.write.mockRejectedValue(new ResourceNotFoundError('Project'));
      await expectNotFound(service.delete(PROJECT, RequestConditions.NONE), 'Project');
      expect(repository.delete).not.toHaveBeenCalled();
    });
  });

  describe('duplicate', () => {
    /** What the copy statement reports: the original at revision 7, copied with 40 nodes. */
    const COPIED = { revision: 7, nodes: 40, projects: 3, treeBytes: 5000, copied: true };
    /** A report of a copy refused by the statement: nothing made, nothing counted. */
    const REFUSED = { copied: false, projects: undefined, treeBytes: undefined };
    const COPY_JSON = '{"_id":"the copy","title":"Old (copy)","revision":1}';
    /** Makes the copy report `copied` and its document `json` (null: none found). */
    const copies = (
      copied: Partial<typeof COPIED> | typeof REFUSED | undefined,
      json: string | null = COPY_JSON,
    ) =>
      repository.copy.mockImplementation(() => ({
        copied: reply(copied === undefined ? undefined : { ...COPIED, ...copied }),
        json: reply(json ?? undefined),
      }));

    beforeEach(() => {
      copies(COPIED);
    });

    it('copies the project in a transaction of its own (not behind its lock) and answers the copy at revision 1 with its Location', async () => {
      const answer = await service.duplicate(PROJECT, {}, RequestConditions.NONE);
      expect(writer.write).not.toHaveBeenCalled();
      expect(db.transaction).toHaveBeenCalledTimes(1);
      expect(db.transaction.mock.calls[0][1]).toBeUndefined();
      expect(repository.copy).toHaveBeenCalledWith(TX, PROJECT, {
        copyId: A_NEW_ID,
        title: null,
        titleMax: 200,
        titleSuffix: ' (copy)',
        maxNodes: 20_000,
      });
      const { copyId } = repository.copy.mock.calls[0][2];
      expect(answer.body?.text).toBe(COPY_JSON);
      expect(answer.headers).toEqual({
        etag: '"r1"',
        projectRevision: 1,
        location: `/projects/${copyId}`,
      });
    });

    it('titles the copy as the body says', async () => {
      await service.duplicate(PROJECT, { title: 'Second draft' }, RequestConditions.NONE);
      expect(repository.copy.mock.calls[0][2]).toMatchObject({ title: 'Second draft' });
    });

    it('gives every copy an id of its own', async () => {
      const first = await service.duplicate(PROJECT, {}, RequestConditions.NONE);
      const second = await service.duplicate(PROJECT, {}, RequestConditions.NONE);
      const [one, two] = repository.copy.mock.calls.map(([, , request]) => request.copyId);
      expect(one).not.toBe(two);
      expect(first.headers.location).toBe(`/projects/${one}`);
      expect(second.headers.location).toBe(`/projects/${two}`);
    });

    it('sends the copy in the first round of its transaction', async () => {
      db.transaction.mockImplementationOnce((work) =>
        runTransaction(work, () => expect(repository.copy).toHaveBeenCalledTimes(1)),
      );
      await expect(service.duplicate(PROJECT, {}, RequestConditions.NONE)).resolves.toBeDefined();
    });

    it('a missing project (or another account’s) is ResourceNotFoundError, whatever If-Match says', async () => {
      copies(undefined, null);
      for (const conditions of [RequestConditions.NONE, ifMatch('*'), ifMatch('"r7"')]) {
        await expectNotFound(service.duplicate(PROJECT, {}, conditions), 'Project');
      }
    });

    it('fails with the original’s tag when If-Match names another (the transaction rolls back)', async () => {
      for (const tag of ['"r6"', '"r8"', '"r1"', 'W/"r7"']) {
        await expect(service.duplicate(PROJECT, {}, ifMatch(tag))).rejects.toMatchObject({
          constructor: PreconditionFailedError,
          currentTag: '"r7"',
        });
      }
      for (const { value } of db.transaction.mock.results) {
        await expect(value).rejects.toBeInstanceOf(PreconditionFailedError);
      }
      await expect(service.duplicate(PROJECT, {}, ifMatch('"r7"'))).resolves.toBeDefined();
    });

    it('checks If-Match before the limits', async () => {
      copies({ ...REFUSED, nodes: 20_001 }, null);
      await expect(service.duplicate(PROJECT, {}, ifMatch('"r6"'))).rejects.toBeInstanceOf(
        PreconditionFailedError,
      );
    });

    it('accepts a copy of 20 000 nodes and refuses one of 20 001 with LimitExceededError(20000)', async () => {
      copies({ nodes: 20_000 });
      await expect(service.duplicate(PROJECT, {}, RequestConditions.NONE)).resolves.toBeDefined();
      copies({ ...REFUSED, nodes: 20_001 }, null);
      await expect(service.duplicate(PROJECT, {}, RequestConditions.NONE)).rejects.toMatchObject({
        constructor: LimitExceededError,
        limit: 20_000,
      });
    });

    it('refuses a copy whose tree is past 8 MiB, not one of 8 MiB', async () => {
      copies({ treeBytes: 8 * MiB });
      await expect(service.duplicate(PROJECT, {}, RequestConditions.NONE)).resolves.toBeDefined();
      copies({ treeBytes: 8 * MiB + 1 });
      await expect(service.duplicate(PROJECT, {}, RequestConditions.NONE)).rejects.toMatchObject({
        constructor: LimitExceededError,
        limit: 8 * MiB,
      });
    });

    it('accepts the 10 000th project of an account and refuses the 10 001st with LimitExceededError(10000)', async () => {
      copies({ projects: 10_000 });
      await expect(service.duplicate(PROJECT, {}, RequestConditions.NONE)).resolves.toBeDefined();
      copies({ projects: 10_001 });
      await expect(service.duplicate(PROJECT, {}, RequestConditions.NONE)).rejects.toMatchObject({
        constructor: LimitExceededError,
        limit: 10_000,
      });
    });

    it('a copy the statement refused within the nodes (its account deleted meanwhile) is AuthenticationRequiredError, a 401', async () => {
      copies({ ...REFUSED, nodes: 40 }, null);
      await expect(service.duplicate(PROJECT, {}, RequestConditions.NONE)).rejects.toMatchObject({
        constructor: AuthenticationRequiredError,
        bearerError: 'invalid_token',
      });
    });

    it('a copy whose document its round does not find is ResourceNotFoundError("Project")', async () => {
      copies(COPIED, null);
      await expectNotFound(service.duplicate(PROJECT, {}, RequestConditions.NONE), 'Project');
    });

    it('with an idempotency request, claims the key in the first round, copies in the next and keeps the answer with 201', async () => {
      keys.claim.mockImplementation(() => reply(true));
      const key = { accountId: 'acc-1', key: IDEMPOTENT.key };
      db.transaction.mockImplementationOnce((work) =>
        runTransaction(work, () => {
          expect(keys.claim).toHaveBeenCalledWith(TX, key, IDEMPOTENT.fingerprint);
          expect(repository.copy).not.toHaveBeenCalled();
        }),
      );
      const answer = await service.duplicate(PROJECT, {}, RequestConditions.NONE, IDEMPOTENT);
      expect(repository.copy).toHaveBeenCalledTimes(1);
      expect(keys.remember).toHaveBeenCalledWith(TX, key, {
        status: 201,
        body: COPY_JSON,
        etag: '"r1"',
        location: answer.headers.location,
        projectRevision: 1,
      });
    });

    it('with a key taken already, replays the answer kept with it and copies nothing', async () => {
      const KEPT = {
        fingerprint: IDEMPOTENT.fingerprint,
        status: 201,
        body: '{"_id":"p9"}',
        etag: '"r1"',
        location: '/projects/p9',
        projectRevision: 1,
      };
      keys.claim.mockImplementation(() => reply(false));
      keys.find.mockImplementation(() => reply(KEPT));
      const answer = await service.duplicate(PROJECT, {}, RequestConditions.NONE, IDEMPOTENT);
      expect(keys.find).toHaveBeenCalledWith(TX, { accountId: 'acc-1', key: IDEMPOTENT.key });
      expect(repository.copy).not.toHaveBeenCalled();
      expect(answer.body?.text).toBe(KEPT.body);
      expect(answer.headers).toEqual({
        etag: '"r1"',
        projectRevision: 1,
        location: '/projects/p9',
      });
    });
  });
});
