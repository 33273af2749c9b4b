import { type OpenAPIObject, type OperationObject, type ResponseObject } from '@nestjs/swagger';
import { problemResponse } from './problems';
import { accessOf, leastRoleOf } from '../common/policy/operation-policy';

/** The extension that states an operation's least role in the project on its path. */
export const LEAST_ROLE_EXTENSION = 'x-least-role';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * The 403 as ApiProblems would add it, but its `status`, which only the decorator takes: one
 * per operation, whose example the document builder completes with the operation's path.
 */
function forbiddenByRole(): ResponseObject {
  const { description, headers, content } = problemResponse(403, ['forbiddenByRole']);
  return { description, ...(headers ? { headers } : {}), content };
}

const WHO = {
  viewer: 'any member of the project (a viewer, an editor or its owner)',
  editor: 'an editor of the project or its owner',
  owner: 'the owner of the project',
} as const;

/**
 * What the routes' policy (common/policy/operation-policy.ts) says of each operation, in the
 * document: its least role (`x-least-role` and a sentence of its description) and, when a member
 * can lack it, its 403. Fails for an operation the policy does not name, or whose token the
 * policy and the document disagree on, so that no route can be added without an entry.
 */
export function applyLeastRoles(document: OpenAPIObject): void {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation: OperationObject | undefined = item[method];
      if (operation === undefined) continue;
      const key = `${method.toUpperCase()} ${path}`;
      const access = accessOf(method, path);
      if (access === undefined) throw new Error(`${key} has no entry in OPERATION_POLICY`);
      // Without a bearer requirement (yet: completeOperations says it), no token is needed.
      const isPublic = (operation.security?.length ?? 0) === 0;
      if (isPublic !== (access === 'anyone')) {
        throw new Error(`${key}: OPERATION_POLICY says ${access}, the route says otherwise`);
      }
      const least = leastRoleOf(access);
      if (least === undefined) continue;
      (operation as unknown as Record<string, unknown>)[LEAST_ROLE_EXTENSION] = least;
      operation.description =
        `${operation.description ?? ''}\n\n**Least role:** \`${least}\`: ${WHO[least]}; ` +
        'for any other account the project does not exist (404).';
      if (least !== 'viewer') operation.responses['403'] ??= forbiddenByRole();
    }
  }
}
