type Node = Record<string, unknown>;

/** What a read adds to each node of a project's document, by level, and the list beneath it. */
const LEVELS = [
  { added: ['_id', 'revision', 'createdAt', 'updatedAt'], children: 'blocks' },
  { added: ['_id', 'createdAt', 'updatedAt'], children: 'rows' },
  { added: ['_id'], children: 'columns' },
  { added: ['_id'], children: 'contents' },
  { added: ['_id'], children: undefined },
] as const;

/**
 * A project's document as an export (`?format=portable`): without the members a read adds
 * (`_id`, `revision`, the times), ready to be posted back as a new project. Only the nodes'
 * own members go: a content's data keeps every key it has.
 */
export function portableDocument(json: string): string {
  return JSON.stringify(portableNode(JSON.parse(json) as Node, 0));
}

function portableNode(node: Node, depth: number): Node {
  const { added, children } = LEVELS[depth];
  const kept = Object.fromEntries(
    Object.entries(node).filter(([member]) => !(added as readonly string[]).includes(member)),
  );
  if (children !== undefined && Array.isArray(node[children])) {
    kept[children] = (node[children] as Node[]).map((child) => portableNode(child, depth + 1));
  }
  return kept;
}
