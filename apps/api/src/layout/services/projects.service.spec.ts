import { jest } from '@jest/globals';
import {
  LimitExceededError,
  PreconditionFailedError,
  ResourceNotFoundError,
} from '../../common/errors';
import { RequestConditions } from '../../common/http/request-conditions';
import { type Database } from '../../database/database';
import { type SqlSession } from '../../database/sql-session';
import { type ProjectScope } from '../layout.scopes';
import { type ProjectsRepository } from '../repositories/projects.repository';
import {
  expectNotFound,
  ifMatch,
  ifNoneMatch,
  lockFinds,
  lockFindsNoProject,
  MiB,
  PROJECT,
  readsMock,
  TX,
  type WriterMock,
  writerMock,
} from '../../../../../test/support/layout-service-fakes';
import { ProjectsService } from './projects.service';
import { type TreeWriter } from './tree-writer';

const PROJECT_JSON = '{"_id":"p1","title":"Old","revision":7,"blocks":[]}';

function repositoryMock() {
  return {
    reads: { project: readsMock<ProjectScope>() },
    listDocument: jest.fn<ProjectsRepository['listDocument']>(),
    listDigest: jest.fn<ProjectsRepository['listDigest']>(),
    insert: jest.fn<ProjectsRepository['insert']>(),
    retitle: jest.fn<ProjectsRepository['retitle']>(),
    delete: jest.fn<ProjectsRepository['delete']>(),
  };
}

describe('ProjectsService', () => {
  let repository: ReturnType<typeof repositoryMock>;
  let db: {
    transaction: jest.Mock<(work: (tx: SqlSession) => Promise<unknown>) => Promise<unknown>>;
  };
  let writer: WriterMock;
  let service: ProjectsService;

  beforeEach(() => {
    repository = repositoryMock();
    db = { transaction: jest.fn((work) => work(TX)) };
    writer = writerMock();
    service = new ProjectsService(
      db as unknown as Database,
      writer as unknown as TreeWriter,
      repository as unknown as ProjectsRepository,
    );
  });

  describe('list', () => {
    const LIST = { digest: 'abc', json: '[{"_id":"p1"}]' };

    it('without If-None-Match reads the list once and tags it "p<digest>"', async () => {
      repository.listDocument.mockResolvedValue(LIST);
      const answer = await service.list('acc-1', RequestConditions.NONE);
      expect(repository.listDigest).not.toHaveBeenCalled();
      expect(repository.listDocument).toHaveBeenCalledTimes(1);
      expect(repository.listDocument).toHaveBeenCalledWith(db, 'acc-1');
      expect(answer.notModified).toBe(false);
      expect(answer.body?.text).toBe(LIST.json);
      expect(answer.headers).toEqual({ etag: '"pabc"' });
    });

    it('with the current tag in If-None-Match reads only the digest and answers 304', async () => {
      repository.listDigest.mockResolvedValue('abc');
      const answer = await service.list('acc-1', ifNoneMatch('"pabc"'));
      expect(repository.listDigest).toHaveBeenCalledWith(db, 'acc-1');
      expect(repository.listDocument).not.toHaveBeenCalled();
      expect(answer.notModified).toBe(true);
      expect(answer.body).toBeUndefined();
      expect(answer.headers).toEqual({ etag: '"pabc"' });
    });

    it('with an old tag in If-None-Match reads the list', async () => {
      repository.listDigest.mockResolvedValue('abc');
      repository.listDocument.mockResolvedValue(LIST);
      const answer = await service.list('acc-1', ifNoneMatch('"pold"'));
      expect(answer.notModified).toBe(false);
      expect(answer.body?.text).toBe(LIST.json);
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

    it('with an old tag in If-None-Match reads and answers the document', async () => {
      repository.reads.project.revision.mockResolvedValue(7);
      repository.reads.project.document.mockResolvedValue(FOUND);
      const answer = await service.retrieve(PROJECT, ifNoneMatch('"r6"'));
      expect(answer.notModified).toBe(false);
      expect(answer.body?.text).toBe(PROJECT_JSON);
      expect(answer.headers.etag).toBe('"r7"');
    });

    it('throws ResourceNotFoundError for a missing project, with or without If-None-Match', async () => {
      repository.reads.project.revision.mockResolvedValue(undefined);
      repository.reads.project.document.mockResolvedValue(undefined);
      await expectNotFound(service.retrieve(PROJECT, RequestConditions.NONE), 'Project');
      await expectNotFound(service.retrieve(PROJECT, ifNoneMatch('*')), 'Project');
    });
  });

  describe('create', () => {
    const CREATED = { id: 'p9', revision: 1, json: '{"_id":"p9"}', projects: 10 };

    it('inserts in a transaction and answers the project at revision 1 with its Location', async () => {
      repository.insert.mockResolvedValue(CREATED);
      const answer = await service.create('acc-1', { title: 'New' });
      expect(db.transaction).toHaveBeenCalledTimes(1);
      expect(repository.insert).toHaveBeenCalledWith(TX, 'acc-1', 'New');
      expect(answer.body?.text).toBe(CREATED.json);
      expect(answer.headers).toEqual({
        etag: '"r1"',
        projectRevision: 1,
        location: '/projects/p9',
      });
    });

    it('accepts the 10 000th project of an account', async () => {
      repository.insert.mockResolvedValue({ ...CREATED, projects: 10_000 });
      await expect(service.create('acc-1', { title: 'New' })).resolves.toBeDefined();
    });

    it('refuses the 10 001st with LimitExceededError(10000), inside the transaction', async () => {
      repository.insert.mockResolvedValue({ ...CREATED, projects: 10_001 });
      const failure = service.create('acc-1', { title: 'New' });
      await expect(failure).rejects.toBeInstanceOf(LimitExceededError);
      await expect(failure).rejects.toMatchObject({ limit: 10_000 });
      // Thrown from the work, so the transaction rolls the insert back.
      await expect(db.transaction.mock.results[0].value).rejects.toBeInstanceOf(LimitExceededError);
    });
  });

  describe('update', () => {
    it('compares If-Match with the revision read under the lock and changes nothing on a mismatch', async () => {
      const failure = service.update(PROJECT, { title: 'New' }, ifMatch('"r6"'));
      await expect(failure).rejects.toBeInstanceOf(PreconditionFailedError);
      await expect(failure).rejects.toMatchObject({ currentTag: '"r7"' });
      expect(writer.write).toHaveBeenCalledWith(PROJECT, expect.any(Function));
      expect(repository.retitle).not.toHaveBeenCalled();
    });

    it('checks If-Match even when the title is unchanged', async () => {
      await expect(
        service.update(PROJECT, { title: 'Old' }, ifMatch('"r6"')),
      ).rejects.toBeInstanceOf(PreconditionFailedError);
      expect(repository.reads.project.document).not.toHaveBeenCalled();
    });

    it('retitles at the new revision when If-Match names the current tag', async () => {
      repository.retitle.mockResolvedValue({ json: '{"title":"New"}', treeBytes: 1010 });
      const answer = await service.update(PROJECT, { title: 'New' }, ifMatch('"r7"'));
      expect(repository.retitle).toHaveBeenCalledWith(TX, PROJECT, 'New');
      expect(answer.body?.text).toBe('{"title":"New"}');
      expect(answer.headers).toEqual({ etag: '"r8"', projectRevision: 8 });
    });

    it.each([
      ['the same title', { title: 'Old' }],
      ['no title', {}],
    ])('with %s changes nothing and answers the current document', async (_name, body) => {
      repository.reads.project.document.mockResolvedValue({ revision: 7, json: PROJECT_JSON });
      const answer = await service.update(PROJECT, body, RequestConditions.NONE);
      expect(repository.retitle).not.toHaveBeenCalled();
      expect(repository.reads.project.document).toHaveBeenCalledWith(TX, PROJECT);
      expect(answer.body?.text).toBe(PROJECT_JSON);
      expect(answer.headers).toEqual({ etag: '"r7"', projectRevision: 7 });
    });

    it('compares the title with the one the lock read', async () => {
      lockFinds(writer, { title: 'New' });
      repository.reads.project.document.mockResolvedValue({ revision: 7, json: PROJECT_JSON });
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
      expect(repository.reads.project.document).not.toHaveBeenCalled();
    });

    it('refuses a title that takes the tree past 8 MiB', async () => {
      repository.retitle.mockResolvedValue({ json: '{}', treeBytes: 8 * MiB + 1 });
      await expect(
        service.update(PROJECT, { title: 'x'.repeat(100) }, RequestConditions.NONE),
      ).rejects.toMatchObject({ constructor: LimitExceededError, limit: 8 * MiB });
    });

    it('accepts a title that shrinks a tree already above 8 MiB', async () => {
      lockFinds(writer, { treeBytes: 9 * MiB });
      repository.retitle.mockResolvedValue({ json: '{}', treeBytes: 9 * MiB - 5 });
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
});
