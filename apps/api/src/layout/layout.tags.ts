import { createHash } from 'node:crypto';

// Entity tags of the tree's representations. A node's tag is the project revision at which its
// representation last changed; a list's is the revision at which its parent's list last
// changed. So a change inside a column changes the tags of that column, its ancestors and the
// lists that hold them, and no other: two people editing two blocks never conflict.

/** The tag of a node (project, block, row, column, content). */
export const nodeTag = (revision: number): string => `"r${revision}"`;

/** The tag of a project's export (`?format=portable`): another representation of it. */
export const portableTag = (revision: number): string => `"r${revision}-portable"`;

/** The tag of the list of a node's children. */
export const listTag = (listRevision: number): string => `"l${listRevision}"`;

/** What tells a page of a project's revisions apart (see HistoryRepository.page). */
export interface RevisionPageIdentity {
  /** The newest and the oldest revision it shows; null when it shows none. */
  readonly newest: number | null;
  readonly oldest: number | null;
  /** Whether a next page follows (its `Link`). */
  readonly more: boolean;
}

/**
 * The tag of a page of a project's revisions. A recorded revision never changes and the kept
 * ones have no gaps, so the page's newest and oldest revisions name its entries: the tag changes
 * exactly when they, or its `Link`, do (a new revision on the first page, pruning on the last),
 * whatever else the project does.
 */
export const revisionsTag = (page: RevisionPageIdentity): string =>
  `"h${page.newest ?? 0}-${page.oldest ?? 0}${page.more ? '+' : ''}"`;

/** What tells a page of an account's projects apart (see ProjectsRepository.page). */
export interface ProjectPageIdentity {
  /** The page's parameters: its size and the key it starts after (none: the first page). */
  readonly limit: number;
  readonly after?: { readonly createdAt: string; readonly id: string };
  /** Digest of the shown projects' ids and revisions, in order. */
  readonly digest: string;
  /** Whether a next page follows (its `Link`). */
  readonly more: boolean;
}

/**
 * The tag of a page of an account's projects: a digest of the page's parameters, of each shown
 * project's id and revision, and of whether a next page follows. It changes exactly when the
 * page's items or its `Link` do, and two pages never share one.
 */
export const projectListTag = (page: ProjectPageIdentity): string => {
  const identity = [
    page.limit,
    page.after?.createdAt ?? '',
    page.after?.id ?? '',
    page.digest,
    page.more ? 'more' : 'last',
  ].join('\n');
  return `"p${createHash('md5').update(identity).digest('hex')}"`;
};
