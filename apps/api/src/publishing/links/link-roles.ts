import { ResourceNotFoundError } from '../../common/errors';

/**
 * Who may do what with a project's share links. Today an account is a project's owner or
 * nothing (the statements find no project for anyone else), so the owner may do everything;
 * once projects have members, the statements name the caller's role and these rules decide:
 * editors create and revoke links, viewers list them.
 */
export type ProjectRole = 'viewer' | 'editor' | 'owner';

const RANK: Readonly<Record<ProjectRole, number>> = { viewer: 0, editor: 1, owner: 2 };

/** The least role each operation on links needs. */
export const LINK_OPERATIONS = {
  create: 'editor',
  revoke: 'editor',
  list: 'viewer',
} as const satisfies Record<string, ProjectRole>;

export type LinkOperation = keyof typeof LINK_OPERATIONS;

/**
 * Throws unless `role` (the caller's in the project; undefined: not a member, so no project)
 * may do `operation`.
 */
export function assertMayOnLinks(role: ProjectRole | undefined, operation: LinkOperation): void {
  if (role === undefined) throw new ResourceNotFoundError('Project');
  if (RANK[role] < RANK[LINK_OPERATIONS[operation]]) {
    // A member without the role: the roles issue maps this to 403 forbidden-by-role.
    throw new ResourceNotFoundError('Project');
  }
}
