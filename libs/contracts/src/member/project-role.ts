/**
 * A member's role in a project, least first: a `viewer` reads the project (its tree, history,
 * members, event stream and presence) and copies it into a project of its own; an `editor`
 * also writes everything inside it (nodes, restores, batches, the title, share links); the
 * `owner`, exactly one per project, also manages its members and deletes it.
 */
export const PROJECT_ROLES = ['viewer', 'editor', 'owner'] as const;

export type ProjectRole = (typeof PROJECT_ROLES)[number];

/** The roles an owner gives when adding a member (`owner` only by handing the project over). */
export const ADDED_MEMBER_ROLES = ['editor', 'viewer'] as const;

export type AddedMemberRole = (typeof ADDED_MEMBER_ROLES)[number];

/** Whether `role` may do what `least` may (an owner all an editor may, an editor a viewer's). */
export function hasRole(role: ProjectRole, least: ProjectRole): boolean {
  return PROJECT_ROLES.indexOf(role) >= PROJECT_ROLES.indexOf(least);
}
