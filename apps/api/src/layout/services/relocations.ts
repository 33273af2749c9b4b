import { DUPLICATE_NODES_MAX, PROJECT_TREE_MAX_BYTES } from '@layout/contracts';
import { type IdempotencyRequest } from '../../common/http/idempotency';
import { type RequestConditions } from '../../common/http/request-conditions';
import { type Representation } from '../../common/http/representation';
import { type Pending, type Round } from '../../database/unit-of-work';
import { changeOf } from '../layout.changes';
import { type ProjectScope } from '../layout.scopes';
import { nodeTag } from '../layout.tags';
import { type SiblingOrderRepository } from '../repositories/sibling-order.repository';
import { type ChildLevel } from '../repositories/sql/tree-levels';
import {
  type CopiedNode,
  type CopyRequest,
  type Destination,
  type MovedNode,
} from '../repositories/written-node';
import { newNodeId } from './body-ids';
import { answerNode } from './node-answers';
import { notFound } from './not-found';
import { assertCopied, assertCopyWithin, assertTreeWithin } from './tree-limits';
import { type TreeWriter } from './tree-writer';

/** What a move answers: 200 (a copy, 201). */
const MOVED = 200;

/**
 * What the moves and copies of one kind of node need to know of it: its level and names, its
 * repository's statements, the rule its new parent keeps (a count, or a row's width), and its
 * path. The rules common to every kind (the order of the 404s, If-Match, the limits of a copy,
 * the place right after the original) are in moveNode and copyNode, once.
 */
export interface Relocation<
  S extends ProjectScope,
  Moved extends MovedNode,
  Copied extends CopiedNode,
> {
  readonly level: ChildLevel;
  /** The node's and its parent's names, as a 404 says them ("Content", "Column"). */
  readonly names: { node: string; parent: string };
  /** The ids of the node and of its parent on the request's path. */
  ids(scope: S): { node: string; parent: string };
  move(
    round: Round,
    scope: S,
    placement: { toParentId: string | null; position: number | null },
  ): Pending<Moved | undefined>;
  copy(
    round: Round,
    scope: S,
    request: CopyRequest & { toParentId: string | null },
  ): { copied: Pending<Copied | undefined>; json: Pending<string | undefined> };
  /** The rule the parent keeps once the node is in it (its count, or a row's width). */
  assertFits(node: Moved | Copied): void;
  /** The path of node `id` under `parent`, a parent of the scope's project. */
  path(scope: S, parent: Destination, id: string): string;
  /** The node's path on the request (what its history records). */
  here(scope: S): string;
}

/** Where a move or a copy puts the node: a parent of the project (null: its own) and a place. */
export interface Placement {
  toParentId: string | null;
  /** Left out: a move goes to the end; a copy right after the original, or to the end of another parent. */
  position?: number;
}

/**
 * Moves the node of `scope` with its subtree to `placement`, in one unit of work behind the
 * project's lock: the node must be there (404), then its new parent (404), then `If-Match`
 * (the node's tag), then the parent's rule and the project's size. A node that moves takes the
 * move's revision as its tag, though its document stays the same: of concurrent moves sent with
 * one tag only the first goes through, as with every other write. A node already where the
 * request puts it changes nothing and takes no revision.
 */
export function moveNode<S extends ProjectScope, M extends MovedNode, C extends CopiedNode, T>(
  writer: TreeWriter,
  relocation: Relocation<S, M, C>,
  scope: S,
  placement: Placement,
  conditions: RequestConditions,
  idempotency: IdempotencyRequest | undefined,
): Promise<Representation<T>> {
  const { toParentId, position } = placement;
  const ids = relocation.ids(scope);
  return writer.write(
    scope,
    changeOf(relocation.level, 'move', relocation.here(scope)),
    (write) => {
      // One statement finds the place and moves the node (see moveNodeStatements): one round.
      const moved = relocation.move(write, scope, { toParentId, position: position ?? null });
      return write.finish(() => {
        const node = moved.get() ?? notFound(relocation.names.node);
        const parent = node.destination ?? notFound(relocation.names.parent);
        conditions.assertPreconditions(nodeTag(node.revision));
        const project = write.project.get();
        if (node.moved) {
          relocation.assertFits(node);
          assertTreeWithin(project.treeBytes, node.treeBytes ?? 0);
        }
        return answerNode<T>(
          node.json,
          node.moved ? project.revision : node.revision,
          node.moved ? project.revision : project.currentRevision,
          relocation.path(scope, parent, ids.node),
        );
      });
    },
    idempotency,
    MOVED,
  );
}

/**
 * Copies the node of `scope` with its subtree, new ids everywhere, to `placement` (without a
 * position: right after the original when it stays in its parent, else at the end), in one
 * unit of work behind the project's lock: the original must be there (404), then the parent
 * (404), then `If-Match` (the original's tag), then the limits of a copy (20 000 nodes, 8 MiB)
 * and the parent's rule. The copy takes the write's revision as its tag.
 */
export function copyNode<S extends ProjectScope, M extends MovedNode, C extends CopiedNode, T>(
  writer: TreeWriter,
  order: SiblingOrderRepository,
  relocation: Relocation<S, M, C>,
  scope: S,
  placement: Placement,
  conditions: RequestConditions,
  idempotency: IdempotencyRequest | undefined,
): Promise<Representation<T>> {
  const { toParentId, position } = placement;
  const ids = relocation.ids(scope);
  const copyId = newNodeId();
  const beside = toParentId === null || toParentId === ids.parent;
  const where = {
    projectId: scope.projectId,
    parentId: toParentId ?? ids.parent,
    position,
    afterId: beside ? ids.node : undefined,
  };
  return writer.write(
    scope,
    changeOf(relocation.level, 'duplicate', relocation.here(scope)),
    (write) =>
      order.placed(write, relocation.level, where, (sortKey, round) => {
        const copy = relocation.copy(round, scope, {
          copyId,
          toParentId,
          sortKey,
          maxNodes: DUPLICATE_NODES_MAX,
          maxTreeBytes: PROJECT_TREE_MAX_BYTES,
        });
        return round.finish(() => {
          const copied = copy.copied.get() ?? notFound(relocation.names.node);
          const parent = copied.destination ?? notFound(relocation.names.parent);
          conditions.assertPreconditions(nodeTag(copied.revision));
          assertCopyWithin(copied);
          relocation.assertFits(copied);
          assertCopied(copied);
          const project = write.project.get();
          return answerNode<T>(
            copy.json.get() ?? notFound(relocation.names.node),
            project.revision,
            project.revision,
            relocation.path(scope, parent, copyId),
          );
        });
      }),
    idempotency,
  );
}
