/** The kinds of node a request addresses. */
export const NODE_KINDS = ['project', 'block', 'row', 'column', 'content'] as const;
export type NodeKind = (typeof NODE_KINDS)[number];

/** What a request did to the node it addressed. */
export const CHANGE_KINDS = ['create', 'update', 'delete', 'move', 'duplicate', 'restore'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/**
 * What one revision's request did: `content.create`, `column.update`, `row.move`,
 * `block.duplicate`, `project.restore`, `batch` (several writes as one), … A project's first
 * revision is `project.create` (or `project.duplicate` for a copy); `history.start` marks where
 * a project's history began for a project older than the history itself.
 */
export type RevisionOperation = `${NodeKind}.${ChangeKind}` | 'batch' | 'history.start';
