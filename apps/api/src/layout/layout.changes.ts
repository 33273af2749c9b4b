import { type ChangeKind, type NodeKind, type RevisionOperation } from '@layout/contracts';
import { type WriterRole } from './locked-round';

/**
 * What a write of the tree records of itself in the project's history: its operation and the
 * path of the node it addressed; and the least role that may make it, which the project's lock
 * checks again (the route's policy let the request in, see members/policy). Every write states
 * it (TreeWriter.write takes it), so none can be recorded or let through without it.
 */
export interface TreeChange {
  readonly operation: Exclude<RevisionOperation, 'history.start'>;
  readonly path: string;
  readonly least: WriterRole;
}

/**
 * The change `kind` of the node of `level` at `path`: an editor's, as every write inside the
 * project is, but the project's delete, which is its owner's.
 */
export const changeOf = (level: NodeKind, kind: ChangeKind, path: string): TreeChange => ({
  operation: `${level}.${kind}`,
  path,
  least: level === 'project' && kind === 'delete' ? 'owner' : 'editor',
});
