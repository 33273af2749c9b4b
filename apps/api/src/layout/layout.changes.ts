import { type ChangeKind, type NodeKind, type RevisionOperation } from '@layout/contracts';

/**
 * What a write of the tree records of itself in the project's history: its operation and the
 * path of the node it addressed. Every write states it (TreeWriter.write takes it), so none
 * can be recorded without it.
 */
export interface TreeChange {
  readonly operation: Exclude<RevisionOperation, 'history.start'>;
  readonly path: string;
}

/** The change `kind` of the node of `level` at `path`. */
export const changeOf = (level: NodeKind, kind: ChangeKind, path: string): TreeChange => ({
  operation: `${level}.${kind}`,
  path,
});
