// Entity tags of the tree's representations. A node's tag is the project revision at which its
// representation last changed; a list's is the revision at which its parent's list last
// changed. So a change inside a column changes the tags of that column, its ancestors and the
// lists that hold them, and no other: two people editing two blocks never conflict.

/** The tag of a node (project, block, row, column, content). */
export const nodeTag = (revision: number): string => `"r${revision}"`;

/** The tag of the list of a node's children. */
export const listTag = (listRevision: number): string => `"l${listRevision}"`;

/** The tag of an account's list of projects: a digest of each project's id and revision. */
export const projectListTag = (digest: string): string => `"p${digest}"`;
