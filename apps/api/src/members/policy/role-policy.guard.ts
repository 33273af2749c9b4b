import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { type FastifyRequest } from 'fastify';
import { hasRole } from '@layout/contracts';
import { type AuthenticatedAccount } from '../../common/auth/authenticated-account';
import { ResourceNotFoundError } from '../../common/errors';
import { ForbiddenByRoleError } from '../errors';
import { RESOURCE_ID } from '../../common/pipes/resource-id';
import { ProjectRoles } from '../project-roles';
import { accessOf, leastRoleOf } from '../../common/policy/operation-policy';
import { documentedTemplate } from './route-template';

/** A request as the bearer token's guard leaves it. */
type PolicedRequest = FastifyRequest & { user?: AuthenticatedAccount };

/**
 * Applied globally, after the bearer token's guard: the operation's entry in OPERATION_POLICY,
 * before any handler (and before any body is validated). For an operation on a project, the
 * caller's role in it: none answers 404, as for a project that does not exist; one less than
 * the least the operation needs answers 403 forbidden-by-role. A stream opened with a ticket
 * has no account yet: its ticket's is checked as a member where the ticket is redeemed.
 */
@Injectable()
export class RolePolicyGuard implements CanActivate {
  constructor(private readonly roles: ProjectRoles) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<PolicedRequest>();
    const template = documentedTemplate(request.routeOptions.url ?? '');
    const access = accessOf(request.method, template);
    if (access === undefined) {
      // The start fails for an operation without an entry (the document checks every one).
      throw new Error(`No entry of OPERATION_POLICY for ${request.method} ${template}`);
    }
    const least = leastRoleOf(access);
    const account = request.user;
    if (least === undefined || account === undefined) return true;
    const { projectId } = request.params as { projectId?: string };
    if (projectId === undefined || !RESOURCE_ID.test(projectId)) {
      throw new ResourceNotFoundError('Project');
    }
    const role = await this.roles.of(account.id, projectId);
    if (role === undefined) throw new ResourceNotFoundError('Project');
    if (!hasRole(role, least)) throw new ForbiddenByRoleError(role, least);
    return true;
  }
}
