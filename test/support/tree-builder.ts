import { type Api, type Response } from './test-app';

/** A project built for a test, with the path of every node, level by level, in order. */
export interface BuiltTree {
  project: string;
  projectId: string;
  /** blocks[b] */
  blocks: string[];
  /** rows[b][r] */
  rows: string[][];
  /** columns[b][r][c] */
  columns: string[][][];
  /** contents[b][r][c][i] */
  contents: string[][][][];
}

/** How many of each: blocks, rows per block, columns per row (with their sizes), contents each. */
export interface TreeShape {
  blocks: number;
  rows: number;
  /** The size of each column of a row (at most 12 in all). */
  columns: number[];
  contents: number;
}

function created(response: Response, what: string): string {
  if (response.status !== 201) throw new Error(`creating ${what} failed: ${response.text}`);
  return response.headers.location as string;
}

/**
 * A project of `shape`, each column made with its contents in one request. Contents are text
 * naming their place (`b0 r1 c2 #3`), so that a test can tell them apart.
 */
export async function buildTree(
  api: Api,
  token: string,
  shape: TreeShape,
  title = 'Tree',
): Promise<BuiltTree> {
  const project = created(await api.post('/projects', { title }, { token }), 'project');
  const tree: BuiltTree = {
    project,
    projectId: project.split('/').pop() as string,
    blocks: [],
    rows: [],
    columns: [],
    contents: [],
  };
  for (let b = 0; b < shape.blocks; b++) {
    const block = created(
      await api.post(`${project}/blocks`, { description: `b${b}` }, { token }),
      'block',
    );
    tree.blocks.push(block);
    tree.rows.push([]);
    tree.columns.push([]);
    tree.contents.push([]);
    for (let r = 0; r < shape.rows; r++) {
      const row = created(
        await api.post(`${block}/rows`, { description: `b${b} r${r}` }, { token }),
        'row',
      );
      tree.rows[b].push(row);
      tree.columns[b].push([]);
      tree.contents[b].push([]);
      for (const [c, size] of shape.columns.entries()) {
        const contents = Array.from({ length: shape.contents }, (_, i) => ({
          type: 'text',
          data: { html: `<p>b${b} r${r} c${c} #${i}</p>` },
        }));
        const response = await api.post(`${row}/columns`, { size, contents }, { token });
        const column = created(response, 'column');
        tree.columns[b][r].push(column);
        tree.contents[b][r].push(
          (response.body.contents as { _id: string }[]).map(
            (content) => `${column}/contents/${content._id}`,
          ),
        );
      }
    }
  }
  return tree;
}

/** The `_id`s of a list answer, in order. */
export const idsOf = (list: { _id: string }[]): string[] => list.map((item) => item._id);

/** The last segment of a path: the node's id. */
export const idOf = (path: string): string => path.split('/').pop() as string;

/**
 * The document without what a copy changes: every `_id`, and a block's timestamps. Two
 * subtrees are copies of each other exactly when these are equal.
 */
export function withoutIds(document: unknown): unknown {
  if (Array.isArray(document)) return document.map(withoutIds);
  if (document === null || typeof document !== 'object') return document;
  return Object.fromEntries(
    Object.entries(document)
      .filter(([key]) => !['_id', 'createdAt', 'updatedAt'].includes(key))
      .map(([key, value]) => [key, withoutIds(value)]),
  );
}

/** Every `_id` in a document, at any depth. */
export function allIds(document: unknown): string[] {
  if (Array.isArray(document)) return document.flatMap(allIds);
  if (document === null || typeof document !== 'object') return [];
  const record = document as Record<string, unknown>;
  return [
    ...(typeof record._id === 'string' ? [record._id] : []),
    ...Object.values(record).flatMap(allIds),
  ];
}

/**
 * The tag of every node of a project and of every list, by path (lists end in their
 * collection's name), read with GET: what a test compares before and after a write.
 */
export async function tagsOf(
  api: Api,
  token: string,
  project: string,
): Promise<Map<string, string>> {
  const tags = new Map<string, string>();
  const read = async (path: string) => {
    const response = await api.get(path, { token });
    if (response.status !== 200) throw new Error(`GET ${path}: ${response.status}`);
    tags.set(path, response.headers.etag as string);
    return response.body as unknown;
  };
  const document = (await read(project)) as {
    blocks: {
      _id: string;
      rows: { _id: string; columns: { _id: string; contents: { _id: string }[] }[] }[];
    }[];
  };
  await read(`${project}/blocks`);
  for (const block of document.blocks) {
    const b = `${project}/blocks/${block._id}`;
    await read(b);
    await read(`${b}/rows`);
    for (const row of block.rows) {
      const r = `${b}/rows/${row._id}`;
      await read(r);
      await read(`${r}/columns`);
      for (const column of row.columns) {
        const c = `${r}/columns/${column._id}`;
        await read(c);
        await read(`${c}/contents`);
        for (const content of column.contents) await read(`${c}/contents/${content._id}`);
      }
    }
  }
  return tags;
}

/** The paths whose tag differs between two snapshots of tagsOf (present in both). */
export function changedTags(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...before.keys()].filter(
    (path) => after.has(path) && after.get(path) !== before.get(path),
  );
}
