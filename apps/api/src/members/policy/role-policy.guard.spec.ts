import { type ExecutionContext } from '@nestjs/common';
import { jest } from '@jest/globals';
import { type ProjectRole } from '@layout/contracts';
import { ResourceNotFoundError } from '../../common/errors';
import { ForbiddenByRoleError } from '../errors';
import { type ProjectRoles } from '../project-roles';
import { accessOf, leastRoleOf, OPERATION_POLICY } from '../../common/policy/operation-policy';
import { RolePolicyGuard } from './role-policy.guard';
import { documentedTemplate } from './route-template';

const PROJECT = '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a87';
const ACCOUNT = { id: 'acc-1', username: 'ada' };

/** The context of a request to Fastify's route `url`, by `user` (none: a ticket's). */
function httpContext(method: string, url: string, params: object, user?: object): ExecutionContext {
  const request = { method, routeOptions: { url }, params, user };
  return { switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
}

function guardWith(role: ProjectRole | undefined) {
  const of = jest.fn(() => Promise.resolve(role));
  return { guard: new RolePolicyGuard({ of } as unknown as ProjectRoles), of };
}

describe('OPERATION_POLICY', () => {
  it('answers a HEAD as its GET, and nothing for an operation it does not name', () => {
    expect(accessOf('HEAD', '/projects/{projectId}')).toBe('viewer');
    expect(accessOf('delete', '/projects/{projectId}')).toBe('owner');
    expect(accessOf('GET', '/nowhere')).toBeUndefined();
    expect(leastRoleOf('signed-in')).toBeUndefined();
    expect(leastRoleOf('editor')).toBe('editor');
  });

  it('lets a viewer read all of a project, an editor write inside it, the owner the rest', () => {
    const ofProjects = Object.entries(OPERATION_POLICY).filter(([operation]) =>
      operation.includes('/projects/{projectId}'),
    );
    for (const [operation, access] of ofProjects) {
      if (operation.startsWith('GET '))
        expect({ operation, access }).toEqual({ operation, access: 'viewer' });
    }
    const tree = ofProjects.filter(
      ([operation]) => /\/blocks/.test(operation) && !operation.startsWith('GET '),
    );
    expect(new Set(tree.map(([, access]) => access))).toEqual(new Set(['editor']));
    expect(accessOf('POST', '/projects/{projectId}/duplicate')).toBe('viewer');
    expect(accessOf('DELETE', '/projects/{projectId}')).toBe('owner');
    expect(accessOf('POST', '/projects/{projectId}/members')).toBe('owner');
    expect(accessOf('PUT', '/projects/{projectId}/members/{accountId}')).toBe('owner');
  });

  it('reads Fastify’s route as the document writes it', () => {
    expect(documentedTemplate('/projects/:projectId/members/:accountId')).toBe(
      '/projects/{projectId}/members/{accountId}',
    );
  });
});

describe('RolePolicyGuard', () => {
  it('lets an operation that needs no membership through, looking nothing up', async () => {
    const { guard, of } = guardWith(undefined);
    await expect(guard.canActivate(httpContext('GET', '/projects', {}, ACCOUNT))).resolves.toBe(
      true,
    );
    await expect(guard.canActivate(httpContext('GET', '/health/live', {}))).resolves.toBe(true);
    expect(of).not.toHaveBeenCalled();
  });

  it('lets a member with the role through, and refuses one without it (403 with both roles)', async () => {
    const route = ['PUT', '/projects/:projectId/blocks/:blockId', { projectId: PROJECT }] as const;
    await expect(
      guardWith('editor').guard.canActivate(httpContext(...route, ACCOUNT)),
    ).resolves.toBe(true);
    const { guard, of } = guardWith('viewer');
    await expect(guard.canActivate(httpContext(...route, ACCOUNT))).rejects.toThrow(
      new ForbiddenByRoleError('viewer', 'editor'),
    );
    expect(of).toHaveBeenCalledWith(ACCOUNT.id, PROJECT);
  });

  it('answers 404 to an account that is no member, and to a malformed id without a lookup', async () => {
    const read = (projectId: string) =>
      httpContext('GET', '/projects/:projectId', { projectId }, ACCOUNT);
    const { guard, of } = guardWith(undefined);
    await expect(guard.canActivate(read(PROJECT))).rejects.toThrow(ResourceNotFoundError);
    await expect(guard.canActivate(read('not-an-id'))).rejects.toThrow(ResourceNotFoundError);
    expect(of).toHaveBeenCalledTimes(1);
  });

  it('leaves a stream opened with a ticket to its ticket’s check', async () => {
    const { guard, of } = guardWith(undefined);
    const stream = httpContext('GET', '/projects/:projectId/events', { projectId: PROJECT });
    await expect(guard.canActivate(stream)).resolves.toBe(true);
    expect(of).not.toHaveBeenCalled();
  });

  it('fails for a route the policy does not name', async () => {
    const { guard } = guardWith('owner');
    await expect(guard.canActivate(httpContext('GET', '/secret', {}, ACCOUNT))).rejects.toThrow(
      /No entry of OPERATION_POLICY for GET \/secret/,
    );
  });
});
