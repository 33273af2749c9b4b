import { type ProjectRole } from '@layout/contracts';

/**
 * Who may call an operation: anyone (no token), any signed-in account (the operation acts on
 * the caller's own account or on what it alone owns), or a member of the project on the path
 * with at least a role.
 */
export type Access = 'anyone' | 'signed-in' | ProjectRole;

// Every operation of the API, by method and path as the OpenAPI document names it, and the
// least that may call it: the one place where who may do what is written. RolePolicyGuard
// applies it before any handler runs (a member without the role gets 403 forbidden-by-role, an
// account that is not a member 404), the document states it on every operation
// (`x-least-role`), and the start fails for an operation that has no entry.
//
// What the contract's roles say, operation by operation: a viewer reads the project and all in
// it, its history, members, stream and presence, and copies it into a project of its own; an
// editor also writes everything inside it (nodes, restore, batch, the title, share links); the
// owner also manages members and deletes the project. Two operations say more than a least
// role, in their services: a member may remove itself (leave) while removing another is the
// owner's, and saying one is `editing` is an editor's.
export const OPERATION_POLICY = {
  'POST /accounts': 'anyone',
  'POST /accounts/auth/token': 'anyone',
  'DELETE /accounts/auth/token': 'signed-in',
  'DELETE /accounts/auth/tokens': 'signed-in',
  'GET /accounts/auth/me': 'signed-in',
  'DELETE /accounts/auth/me': 'signed-in',
  'PUT /accounts/auth/me/password': 'signed-in',

  'POST /assets': 'signed-in',
  'GET /assets': 'signed-in',
  'GET /assets/{assetId}': 'anyone',
  'DELETE /assets/{assetId}': 'signed-in',

  'POST /projects': 'signed-in',
  'GET /projects': 'signed-in',
  'GET /projects/{projectId}': 'viewer',
  'PUT /projects/{projectId}': 'editor',
  'DELETE /projects/{projectId}': 'owner',
  'POST /projects/{projectId}/duplicate': 'viewer',

  'GET /projects/{projectId}/members': 'viewer',
  'POST /projects/{projectId}/members': 'owner',
  'PUT /projects/{projectId}/members/{accountId}': 'owner',
  'DELETE /projects/{projectId}/members/{accountId}': 'viewer',

  'GET /projects/{projectId}/presence': 'viewer',
  'PUT /projects/{projectId}/presence': 'viewer',

  'POST /projects/{projectId}/blocks': 'editor',
  'GET /projects/{projectId}/blocks': 'viewer',
  'GET /projects/{projectId}/blocks/{blockId}': 'viewer',
  'PUT /projects/{projectId}/blocks/{blockId}': 'editor',
  'DELETE /projects/{projectId}/blocks/{blockId}': 'editor',
  'POST /projects/{projectId}/blocks/{blockId}/move': 'editor',
  'POST /projects/{projectId}/blocks/{blockId}/duplicate': 'editor',

  'POST /projects/{projectId}/blocks/{blockId}/rows': 'editor',
  'GET /projects/{projectId}/blocks/{blockId}/rows': 'viewer',
  'GET /projects/{projectId}/blocks/{blockId}/rows/{rowId}': 'viewer',
  'PUT /projects/{projectId}/blocks/{blockId}/rows/{rowId}': 'editor',
  'DELETE /projects/{projectId}/blocks/{blockId}/rows/{rowId}': 'editor',
  'POST /projects/{projectId}/blocks/{blockId}/rows/{rowId}/move': 'editor',
  'POST /projects/{projectId}/blocks/{blockId}/rows/{rowId}/duplicate': 'editor',

  'POST /projects/{projectId}/blocks/{blockId}/rows/{rowId}/columns': 'editor',
  'GET /projects/{projectId}/blocks/{blockId}/rows/{rowId}/columns': 'viewer',
  'GET /projects/{projectId}/blocks/{blockId}/rows/{rowId}/columns/{columnId}': 'viewer',
  'PUT /projects/{projectId}/blocks/{blockId}/rows/{rowId}/columns/{columnId}': 'editor',
  'DELETE /projects/{projectId}/blocks/{blockId}/rows/{rowId}/columns/{columnId}': 'editor',
  'POST /projects/{projectId}/blocks/{blockId}/rows/{rowId}/columns/{columnId}/move': 'editor',
  'POST /projects/{projectId}/blocks/{blockId}/rows/{rowId}/columns/{columnId}/duplicate': 'editor',

  'POST /projects/{projectId}/blocks/{blockId}/rows/{rowId}/columns/{columnId}/contents': 'editor',
  'GET /projects/{projectId}/blocks/{blockId}/rows/{rowId}/columns/{columnId}/contents': 'viewer',
  'GET /projects/{projectId}/blocks/{blockId}/rows/{rowId}/columns/{columnId}/contents/{contentId}':
    'viewer',
  'PUT /projects/{projectId}/blocks/{blockId}/rows/{rowId}/columns/{columnId}/contents/{contentId}':
    'editor',
  'DELETE /projects/{projectId}/blocks/{blockId}/rows/{rowId}/columns/{columnId}/contents/{contentId}':
    'editor',
  'POST /projects/{projectId}/blocks/{blockId}/rows/{rowId}/columns/{columnId}/contents/{contentId}/move':
    'editor',
  'POST /projects/{projectId}/blocks/{blockId}/rows/{rowId}/columns/{columnId}/contents/{contentId}/duplicate':
    'editor',

  'POST /projects/{projectId}/batch': 'editor',

  'GET /projects/{projectId}/revisions': 'viewer',
  'GET /projects/{projectId}/revisions/{revision}': 'viewer',
  'POST /projects/{projectId}/revisions/{revision}/restore': 'editor',
  'GET /projects/{projectId}/events': 'viewer',
  'POST /projects/{projectId}/events/tickets': 'viewer',

  'GET /projects/{projectId}/render': 'viewer',
  'GET /projects/{projectId}/revisions/{revision}/render': 'viewer',
  'POST /projects/{projectId}/links': 'editor',
  'GET /projects/{projectId}/links': 'viewer',
  'DELETE /projects/{projectId}/links/{linkId}': 'editor',
  'GET /shared/{token}': 'anyone',

  'GET /health/live': 'anyone',
  'GET /health/ready': 'anyone',
} as const satisfies Readonly<Record<string, Access>>;

/** An operation: its method and its path template, as the OpenAPI document names it. */
export type Operation = keyof typeof OPERATION_POLICY;

/**
 * Who may call the operation `method` `template` (`GET`, `/projects/{projectId}`); HEAD is its
 * GET. Undefined for one the table does not name.
 */
export function accessOf(method: string, template: string): Access | undefined {
  const verb = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  return (OPERATION_POLICY as Readonly<Record<string, Access>>)[`${verb} ${template}`];
}

/** The project role an access names, or undefined for one that needs no membership. */
export function leastRoleOf(access: Access): ProjectRole | undefined {
  return access === 'anyone' || access === 'signed-in' ? undefined : access;
}
