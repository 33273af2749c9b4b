import { Injectable } from '@nestjs/common';
import { DUPLICATE_NODES_MAX, PROJECT_TREE_MAX_BYTES } from '@layout/contracts';
import { type RequestConditions } from '../../common/http/request-conditions';
import { Representation } from '../../common/http/representation';
import { type Step } from '../../database/unit-of-work';
import { pathOf, pathUnder } from '../layout.paths';
import { type LevelScopes, type ParentScope } from '../layout.scopes';
import { nodeTag } from '../layout.tags';
import { type LockedRound } from '../locked-round';
import { type NodeChanges } from '../repositories/node-values';
import { NodesRepository, type Placement } from '../repositories/nodes.repository';
import { type UpdatedNode } from '../repositories/written-node';
import { type ChildLevel, parentOf, TREE_LEVELS } from '../repositories/sql/tree-levels';
import { newNodeId, parentIdOf } from './body-ids';
import { ColumnContents } from './column-contents';
import { type LevelBodies, LEVELS } from './node-levels';
import { answerNode } from './node-answers';
import { notFound } from './not-found';
import { assertPathId } from './path-id';
import { assertCopied, assertCopyWithin, assertTreeWithin } from './tree-limits';
import { assertWithin, plannedSubtree } from './node-trees';

/** A write of one node: its statements behind the project's lock, then its rules and answer. */
export type NodeWork<T> = (write: LockedRound) => Step<Representation<T>>;

/**
 * An update that sets a node's members and nothing else (no place, no column's contents or
 * size, so no rule of its parent): checked before the lock, it can run with others of its level
 * in one statement (NodeWrites.updateEach).
 */
export interface MemberUpdate<L extends ChildLevel = ChildLevel> {
  readonly level: L;
  readonly scope: LevelScopes[L];
  readonly changes: NodeChanges<L>;
  readonly conditions: RequestConditions;
}

/** What one of several writes came to: its answer, or its refusal (the last of them). */
export type Settled<T> = { readonly answer: Representation<T> } | { readonly refusal: unknown };

/** The id of the node of `level` that `scope` names. */
const idOf = (level: ChildLevel, scope: object) =>
  (scope as Record<string, string>)[TREE_LEVELS[level].idParam];

/** The id of the node a MemberUpdate sets. */
export const updatedNodeId = ({ level, scope }: MemberUpdate): string => idOf(level, scope);

/** `scope` with the node of `level` it names set to `id`. */
const withId = <L extends ChildLevel>(level: L, scope: object, id: string) =>
  ({ ...scope, [TREE_LEVELS[level].idParam]: id }) as unknown as LevelScopes[L];

/**
 * The writes of a node of any level (block, row, column, content), each a unit of work to run
 * behind the project's lock: its statements go out in as few rounds as its rules allow, and its
 * rules read their answers. What differs between levels is read from LEVELS. A write that
 * changes nothing takes no revision and answers the node as it is.
 */
@Injectable()
export class NodeWrites {
  constructor(
    private readonly nodes: NodesRepository,
    private readonly columns: ColumnContents,
  ) {}

  /**
   * A new node under the parent of `scope`, at the end of its list or at `position`, with the
   * nodes beneath it that its body lists (plannedSubtree): the nodes, its document and its place
   * go in one round (its id is made here, so that they can name it). The rules of the nodes
   * beneath it are checked before the lock; its own parent's rule and the project's size, on
   * what the statement reports.
   */
  create<L extends ChildLevel>(
    level: L,
    scope: ParentScope<L>,
    body: LevelBodies[L]['create'],
    id: string = newNodeId(),
  ): NodeWork<LevelBodies[L]['response']> {
    const rules = LEVELS[level];
    const values = rules.values(body, '');
    const subtree = plannedSubtree(level, body, id);
    const node = withId(level, scope, id);
    return (write) => {
      const inserted = this.nodes.insert(write, level, node, values, subtree);
      // Its document with the nodes beneath it, which the insert's own answer cannot see yet.
      const document =
        subtree.nodes > 1 ? this.nodes.reads.node[level].documentIn(write, node) : undefined;
      if (body.position !== undefined) {
        this.nodes.place(write, level, node, {
          find: 'id',
          to: 'position',
          toParentId: null,
          position: body.position,
        });
      }
      return write.finish(() => {
        const created = inserted.get() ?? notFound(rules.parentName);
        rules.fits({ ...created, size: 'size' in values ? values.size : undefined });
        const project = write.project.get();
        if (document === undefined) assertTreeWithin(project.treeBytes, created.treeBytes);
        else assertWithin('', () => assertTreeWithin(project.treeBytes, created.treeBytes));
        return answerNode(
          document?.get()?.json ?? created.json,
          project.revision,
          project.revision,
          pathOf.node(level, node),
        );
      });
    };
  }

  /**
   * Members left out keep their value (a column's `contents`, when given, is its complete new
   * list: see ColumnContents); `position` moves the node within its parent. A node whose
   * members change, or that moves, takes the write's revision as its tag.
   */
  update<L extends ChildLevel>(
    level: L,
    scope: LevelScopes[L],
    body: LevelBodies[L]['update'],
    conditions: RequestConditions,
  ): NodeWork<LevelBodies[L]['response']> {
    if ('_id' in body) assertPathId(body._id, idOf(level, scope));
    const rules = LEVELS[level];
    if ('contents' in body && body.contents !== undefined) {
      return this.replaceContents(scope as LevelScopes['column'], body, conditions);
    }
    const changes = rules.changes(body);
    return (write) => this.setMembers(write, level, scope, changes, body.position, conditions);
  }

  /**
   * The update as a MemberUpdate, checked as `update` checks it, when it only sets members;
   * undefined when it does more (then `update` runs it).
   */
  memberUpdate<L extends ChildLevel>(
    level: L,
    scope: LevelScopes[L],
    body: LevelBodies[L]['update'],
    conditions: RequestConditions,
  ): MemberUpdate<L> | undefined {
    if (body.position !== undefined) return undefined;
    if ('contents' in body && body.contents !== undefined) return undefined;
    if ('size' in body && body.size != null) return undefined;
    if ('_id' in body) assertPathId(body._id, idOf(level, scope));
    return { level, scope, changes: LEVELS[level].changes(body), conditions };
  }

  /** A MemberUpdate alone: `update` without a place. */
  updateMembers<L extends ChildLevel>(
    update: MemberUpdate<L>,
  ): NodeWork<LevelBodies[L]['response']> {
    const { level, scope, changes, conditions } = update;
    return (write) => this.setMembers(write, level, scope, changes, undefined, conditions);
  }

  /**
   * Several updates of members, of nodes of one level that all differ, in one statement: each
   * is checked as if it were sent alone at its turn (its node on its path, `If-Match`, the
   * project's size as it stood right after it), as `update` checks it. What each came to, in
   * order, up to the first refused, whose refusal ends the list.
   */
  updateEach<L extends ChildLevel>(
    updates: readonly MemberUpdate<L>[],
  ): (write: LockedRound) => Step<Settled<LevelBodies[L]['response']>[]> {
    const { level, scope } = updates[0];
    const ids = new Set(updates.map(updatedNodeId));
    if (updates.some((update) => update.level !== level) || ids.size < updates.length) {
      throw new TypeError('updateEach takes updates of distinct nodes of one level');
    }
    return (write) => {
      const updated = this.nodes.updateEach(write, level, scope.projectId, updates);
      return write.finish(() => {
        const nodes = updated.get();
        const settled: Settled<LevelBodies[L]['response']>[] = [];
        for (const [index, update] of updates.entries()) {
          try {
            settled.push({ answer: this.membersSet(write, update, nodes[index], false) });
          } catch (refusal) {
            settled.push({ refusal });
            break;
          }
        }
        return settled;
      });
    };
  }

  /** Deletes the node with its subtree. */
  delete<L extends ChildLevel>(
    level: L,
    scope: LevelScopes[L],
    conditions: RequestConditions,
  ): NodeWork<never> {
    return (write) => {
      const deleted = this.nodes.delete(write, level, scope);
      return write.finish(() => {
        conditions.assertPreconditions(nodeTag(deleted.get() ?? notFound(LEVELS[level].name)));
        return Representation.empty({ projectRevision: write.project.get().revision });
      });
    };
  }

  /**
   * Moves the node with its subtree to the parent the body names (its own when left out), at
   * `position` (the end when left out), in one statement: the node must be there (404), then
   * its new parent (404), then `If-Match` (the node's tag), then the parent's rule and the
   * project's size. A node that moves takes the move's revision as its tag, though its document
   * stays the same: of concurrent moves sent with one tag only the first goes through, as with
   * every other write. A node already where the request puts it changes nothing.
   */
  move<L extends ChildLevel>(
    level: L,
    scope: LevelScopes[L],
    body: LevelBodies[L]['move'],
    conditions: RequestConditions,
  ): NodeWork<LevelBodies[L]['response']> {
    const rules = LEVELS[level];
    const toParentId = this.parentNamed(level, body);
    const placement: Placement =
      body.position === undefined
        ? { find: 'path', to: 'end', toParentId }
        : { find: 'path', to: 'position', toParentId, position: body.position };
    return (write) => {
      const placed = this.nodes.place(write, level, scope, placement);
      return write.finish(() => {
        const node = placed.get() ?? notFound(rules.name);
        const parent = node.destination ?? notFound(rules.parentName);
        conditions.assertPreconditions(nodeTag(node.revision));
        const project = write.project.get();
        if (node.moved) {
          rules.fits(node);
          assertTreeWithin(project.treeBytes, node.treeBytes ?? 0);
        }
        return answerNode(
          node.json ?? notFound(rules.name),
          node.moved ? project.revision : node.revision,
          node.moved ? project.revision : project.currentRevision,
          pathUnder(level, scope.projectId, parent, idOf(level, scope)),
        );
      });
    };
  }

  /**
   * Copies the node with its subtree, new ids everywhere, to the parent the body names (its own
   * when left out), at `position`; without one, right after the original in its own parent, else
   * at the end. The original must be there (404), then the parent (404), then `If-Match` (the
   * original's tag), then the limits of a copy (20 000 nodes, 8 MiB) and the parent's rule. The
   * copy takes the write's revision as its tag.
   */
  duplicate<L extends ChildLevel>(
    level: L,
    scope: LevelScopes[L],
    body: LevelBodies[L]['duplicate'],
    conditions: RequestConditions,
    copyId: string = newNodeId(),
  ): NodeWork<LevelBodies[L]['response']> {
    const rules = LEVELS[level];
    const toParentId = this.parentNamed(level, body);
    const copy = withId(level, scope, copyId);
    const ownParent = level === 'block' ? null : idOf(parentOf(level) as ChildLevel, scope);
    let placement: Placement | undefined;
    if (body.position !== undefined) {
      placement = { find: 'id', to: 'position', toParentId, position: body.position };
    } else if (toParentId === null || toParentId === ownParent) {
      placement = { find: 'id', to: 'after', toParentId, afterId: idOf(level, scope) };
    }
    return (write) => {
      const copied = this.nodes.copy(write, level, scope, {
        copyId,
        toParentId,
        maxNodes: DUPLICATE_NODES_MAX,
        maxTreeBytes: PROJECT_TREE_MAX_BYTES,
      });
      if (placement) this.nodes.place(write, level, copy, placement);
      return write.finish(() => {
        const made = copied.copied.get() ?? notFound(rules.name);
        const parent = made.destination ?? notFound(rules.parentName);
        conditions.assertPreconditions(nodeTag(made.revision));
        assertCopyWithin(made);
        rules.fits(made);
        assertCopied(made);
        const project = write.project.get();
        return answerNode(
          copied.json.get() ?? notFound(rules.name),
          project.revision,
          project.revision,
          pathUnder(level, scope.projectId, parent, copyId),
        );
      });
    };
  }

  /**
   * The members `changes` gives, and the place `position` asks for, in one round: then
   * `If-Match` (the node's tag before), the parent's rule, and the project's size.
   */
  setMembers<L extends ChildLevel>(
    write: LockedRound,
    level: L,
    scope: LevelScopes[L],
    changes: NodeChanges<L>,
    position: number | undefined,
    conditions: RequestConditions,
  ): Step<Representation<LevelBodies[L]['response']>> {
    const rules = LEVELS[level];
    const updated = this.nodes.update(write, level, scope, changes);
    const placed =
      position === undefined
        ? undefined
        : this.nodes.place(write, level, scope, {
            find: 'path',
            to: 'position',
            toParentId: null,
            position,
          });
    return write.finish(() => {
      const { size } = changes as { size?: number | null };
      return this.membersSet(
        write,
        { level, scope, changes, conditions },
        updated.get(),
        placed?.get()?.moved ?? false,
        (node) => {
          if (size != null) rules.fits({ others: node.others, size });
        },
      );
    });
  }

  /**
   * The rules of an update of members, on what its statement reported (`node`), and its
   * answer: the node must be there (404), then `If-Match` (its tag before), then its parent's
   * rule, then the project's size. A node that changed or moved takes the write's revision as
   * its tag.
   */
  private membersSet<L extends ChildLevel>(
    write: LockedRound,
    { level, conditions }: MemberUpdate<L>,
    node: UpdatedNode | undefined,
    moved: boolean,
    parentRule: (node: UpdatedNode) => void = () => undefined,
  ): Representation<LevelBodies[L]['response']> {
    if (node === undefined) notFound(LEVELS[level].name);
    conditions.assertPreconditions(nodeTag(node.previousRevision));
    parentRule(node);
    const project = write.project.get();
    if (node.changed) assertTreeWithin(project.treeBytes, node.treeBytes ?? 0);
    const written = node.changed || moved;
    return answerNode(
      node.json,
      // A node that moves takes a new tag, as with a move.
      written ? project.revision : node.previousRevision,
      written ? project.revision : project.currentRevision,
    );
  }

  /**
   * A column's new contents: the current ones, read under the lock, and the plan. When the plan
   * leaves them as they are, only the size or the place can change.
   */
  private replaceContents(
    scope: LevelScopes['column'],
    body: LevelBodies['column']['update'],
    conditions: RequestConditions,
  ): NodeWork<LevelBodies['column']['response']> {
    const elements = this.columns.prepare(body.contents ?? []);
    const size = body.size ?? null;
    return (write) => {
      const found = this.nodes.findColumnContents(write, scope);
      return write.next((round) => {
        const current = found.get() ?? notFound('Column');
        conditions.assertPreconditions(nodeTag(current.revision));
        const contents = this.columns.plan(elements, current.contents);
        if (this.columns.same(contents, current.contents)) {
          return this.setMembers(round, 'column', scope, { size }, body.position, conditions);
        }
        LEVELS.column.fits({ others: current.others, size: size ?? current.size });
        const replaced = this.nodes.replaceContents(round, scope, contents);
        const updated = this.nodes.update(round, 'column', scope, { size });
        if (body.position !== undefined) {
          this.nodes.place(round, 'column', scope, {
            find: 'path',
            to: 'position',
            toParentId: null,
            position: body.position,
          });
        }
        return round.finish(() => {
          const column = updated.get() ?? notFound('Column');
          const project = round.project.get();
          assertTreeWithin(project.treeBytes, column.treeBytes ?? replaced.get() ?? 0);
          return answerNode(column.json, project.revision, project.revision);
        });
      });
    };
  }

  /** The other parent a move's or a copy's body names; null: the node's own. */
  private parentNamed(level: ChildLevel, body: object): string | null {
    const { parentMember, parentName } = LEVELS[level];
    if (parentMember === undefined) return null;
    return parentIdOf((body as Record<string, string | undefined>)[parentMember], parentName);
  }
}
