import {
  BLOCKS_PER_PROJECT_MAX,
  CONTENTS_PER_COLUMN_MAX,
  DUPLICATE_NODES_MAX,
  ROW_WIDTH,
  ROWS_PER_BLOCK_MAX,
} from '@layout/contracts';
import { DomainError, LimitExceededError } from '../../common/errors';
import { RefusedMemberError, RowWidthExceededError } from '../errors';
import { type NewNodes, type NewSubtree } from '../repositories/new-subtree';
import { type NodeValues } from '../repositories/node-values';
import { type ChildLevel, SORT_KEY_GAP, type TreeLevel } from '../repositories/sql/tree-levels';
import { newNodeId } from './body-ids';
import { LEVELS } from './node-levels';

/**
 * How many children a node of each level holds at most, as a tree is checked; a row's columns
 * are held by its width instead, as when they are created one by one.
 */
const MOST_CHILDREN: Record<ChildLevel, { max: number; container: string } | undefined> = {
  block: { max: BLOCKS_PER_PROJECT_MAX, container: 'A project' },
  row: { max: ROWS_PER_BLOCK_MAX, container: 'A block' },
  column: undefined,
  content: { max: CONTENTS_PER_COLUMN_MAX, container: 'A column' },
};

/** The member of a project's body that lists its blocks. */
const PROJECT_CHILDREN = { member: 'blocks', level: 'block' } as const;

type Element = Record<string, unknown>;

/**
 * The nodes that a create makes beneath node `id` of `level`, from the children its body lists
 * (a project's `blocks`, a block's `rows`, …, each with its own), with every rule each would
 * meet if created alone, checked in the order they stand in the body: its values (defaults,
 * sanitising, the size of a content's data), its parent's count, a row's width, and the nodes
 * one create may make. The first that breaks one is refused with its pointer into the body.
 */
export function plannedSubtree(level: TreeLevel, body: object, id: string): NewSubtree {
  const subtree: NewSubtree = { nodes: 1, levels: {} };
  plantChildren(subtree, level, body as Element, id, '');
  return subtree;
}

function plantChildren(
  subtree: NewSubtree,
  level: TreeLevel,
  node: Element,
  id: string,
  pointer: string,
): void {
  const children = level === 'project' ? PROJECT_CHILDREN : LEVELS[level].children;
  const elements = children === undefined ? undefined : node[children.member];
  if (children === undefined || !Array.isArray(elements)) return;
  const { member, level: child } = children;
  let width = 0;
  elements.forEach((element: Element, index) => {
    const at = `${pointer}/${member}/${index}`;
    const most = MOST_CHILDREN[child];
    if (most !== undefined && index >= most.max) {
      refuse(at, new LimitExceededError(most.max, `${most.container} holds at most ${most.max}`));
    }
    subtree.nodes += 1;
    if (subtree.nodes > DUPLICATE_NODES_MAX) {
      refuse(
        at,
        new LimitExceededError(
          DUPLICATE_NODES_MAX,
          `A create makes at most ${DUPLICATE_NODES_MAX} nodes`,
        ),
      );
    }
    const values = valuesAt(child, element, at);
    if ('size' in values) {
      if (width + values.size > ROW_WIDTH) {
        refuse(`${at}/size`, new RowWidthExceededError(ROW_WIDTH - width, values.size, ROW_WIDTH));
      }
      width += values.size;
    }
    const childId = newNodeId();
    planted(subtree, child, { id: childId, parent: id, key: (index + 1) * SORT_KEY_GAP, values });
    plantChildren(subtree, child, element, childId, at);
  });
}

/** What a node of the tree stores; its refusal (its data's size) with its pointer. */
function valuesAt<L extends ChildLevel>(level: L, element: Element, at: string): NodeValues[L] {
  try {
    return LEVELS[level].values(element, at);
  } catch (refusal) {
    if (refusal instanceof DomainError && !(refusal instanceof RefusedMemberError)) {
      refuse(`${at}/data`, refusal);
    }
    throw refusal;
  }
}

function planted<L extends ChildLevel>(
  subtree: NewSubtree,
  level: L,
  node: { id: string; parent: string; key: number; values: NodeValues[L] },
): void {
  const nodes = (subtree.levels[level] ??= {
    ids: [],
    parents: [],
    keys: [],
    values: [],
  }) as NewNodes<L>;
  nodes.ids.push(node.id);
  nodes.parents.push(node.parent);
  nodes.keys.push(String(node.key));
  nodes.values.push(node.values);
}

/** Runs `rule`, its refusal told as one of the body's member at `pointer` ('' for the whole). */
export function assertWithin(pointer: string, rule: () => void): void {
  try {
    rule();
  } catch (refusal) {
    if (refusal instanceof DomainError) refuse(pointer, refusal);
    throw refusal;
  }
}

function refuse(pointer: string, refusal: DomainError): never {
  throw new RefusedMemberError(pointer, refusal);
}
