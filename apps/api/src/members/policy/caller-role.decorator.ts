import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { type ProjectRole } from '@layout/contracts';
import { type PolicedRequest } from './role-policy.guard';

/** The caller's role in the project on the path, as RolePolicyGuard found it. */
export const CallerRole = createParamDecorator(
  (_data: unknown, context: ExecutionContext): ProjectRole => {
    const role = context.switchToHttp().getRequest<PolicedRequest>().projectRole;
    if (role === undefined)
      throw new Error('CallerRole used on a route the policy does not police');
    return role;
  },
);
