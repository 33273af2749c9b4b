import { jest } from '@jest/globals';
import {
  type ProjectResponse,
  type CreateProjectDto,
  type UpdateProjectDto,
} from '@layout/contracts';
import { SerializedJson } from '../../common/json/serialized-json';
import { ResourceNotFoundError } from '../../common/errors';
import { type ProjectRecord } from '../layout.records';
import { type ProjectScope } from '../layout.scopes';
import { type ProjectsRepository } from '../repositories/projects.repository';
import { ProjectsService } from './projects.service';

const PROJECT: ProjectScope = { accountId: 'acc', projectId: 'prj' };
const RECORD: ProjectRecord = {
  id: 'prj',
  title: 'Proposal',
  createdAt: new Date('2024-01-01T00:00:00Z'),
  updatedAt: new Date('2024-01-02T00:00:00Z'),
  blocks: [],
};

const DOCUMENT = new SerializedJson<ProjectResponse>('{"_id":"x"}');

function repositoryMock() {
  return {
    listOwnedBy: jest.fn<ProjectsRepository['listOwnedBy']>(),
    findTreeDocument: jest.fn<ProjectsRepository['findTreeDocument']>(),
    create: jest.fn<ProjectsRepository['create']>(),
    update: jest.fn<ProjectsRepository['update']>(),
    delete: jest.fn<ProjectsRepository['delete']>(),
  };
}

const body = <T>(value: object) => value as T;

describe('ProjectsService', () => {
  let repository: ReturnType<typeof repositoryMock>;
  let service: ProjectsService;

  beforeEach(() => {
    repository = repositoryMock();
    service = new ProjectsService(repository as unknown as ProjectsRepository);
  });

  it("lists the caller's projects only", async () => {
    const { blocks: _blocks, ...summary } = RECORD;
    repository.listOwnedBy.mockResolvedValue([summary]);
    await expect(service.list('acc')).resolves.toEqual([summary]);
    expect(repository.listOwnedBy).toHaveBeenCalledWith('acc');
  });

  it('creates a project owned by the caller with the given title', async () => {
    repository.create.mockResolvedValue(RECORD);
    await expect(
      service.create('acc', body<CreateProjectDto>({ title: 'Proposal' })),
    ).resolves.toBe(RECORD);
    expect(repository.create).toHaveBeenCalledWith('acc', 'Proposal');
  });

  it('updates only the title, leaving it untouched when left out', async () => {
    repository.update.mockResolvedValue(DOCUMENT);
    await service.update(PROJECT, body<UpdateProjectDto>({ title: 'Renamed' }));
    await service.update(PROJECT, body<UpdateProjectDto>({}));
    expect(repository.update.mock.calls).toEqual([
      [PROJECT, { title: 'Renamed' }],
      [PROJECT, { title: undefined }],
    ]);
  });

  it('maps a missing project on update to ResourceNotFoundError', async () => {
    repository.update.mockResolvedValue(null);
    const result = service.update(PROJECT, body<UpdateProjectDto>({ title: 'x' }));
    await expect(result).rejects.toBeInstanceOf(ResourceNotFoundError);
    await expect(result).rejects.toMatchObject({ resource: 'Project' });
  });

  it('retrieves, or maps a missing project to ResourceNotFoundError', async () => {
    repository.findTreeDocument.mockResolvedValueOnce(DOCUMENT).mockResolvedValueOnce(null);
    await expect(service.retrieve(PROJECT)).resolves.toBe(DOCUMENT);
    const missing = service.retrieve(PROJECT);
    await expect(missing).rejects.toBeInstanceOf(ResourceNotFoundError);
    await expect(missing).rejects.toMatchObject({ resource: 'Project' });
    expect(repository.findTreeDocument).toHaveBeenCalledWith(PROJECT);
  });

  it('deletes, or maps a missing project to ResourceNotFoundError', async () => {
    repository.delete.mockResolvedValueOnce(true).mockResolvedValueOnce(false);
    await expect(service.delete(PROJECT)).resolves.toBeUndefined();
    await expect(service.delete(PROJECT)).rejects.toMatchObject({ resource: 'Project' });
    expect(repository.delete).toHaveBeenCalledWith(PROJECT);
  });
});
