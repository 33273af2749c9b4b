import { Client } from 'pg';

/**
 * What the write path keeps for a project, recomputed from scratch: each node's child count,
 * the bytes of its children in its JSON answer, and the project's whole answer in bytes. A test
 * compares it with what the service stored (and with the bytes of `GET /projects/<id>`).
 */
export interface TreeAccounts {
  /** Nodes whose stored child_count or children_bytes differ from the recomputed ones. */
  mismatches: string[];
  /** Bytes of the project's answer according to the stored counters. */
  storedTreeBytes: number;
}

const SHELL = {
  content: `octet_length(json_build_object('_id', x.id, 'type', x.type, 'style', x.style,
    'data', x.data)::text)`,
  column: `octet_length(json_build_object('_id', x.id, 'size', x.size::text,
    'contents', '[]'::json)::text) + x.children_bytes`,
  row: `octet_length(json_build_object('_id', x.id, 'description', x.description,
    'columns', '[]'::json)::text) + x.children_bytes`,
  block: `octet_length(json_build_object('_id', x.id, 'description', x.description,
    'style', x.style, 'rows', '[]'::json,
    'createdAt', to_char(x.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'updatedAt', to_char(x.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))::text)
    + x.children_bytes`,
};

const LEVELS = [
  { parent: 'projects', child: 'blocks', key: 'project_id', bytes: SHELL.block },
  { parent: 'blocks', child: 'rows', key: 'block_id', bytes: SHELL.row },
  { parent: 'rows', child: 'columns', key: 'row_id', bytes: SHELL.column },
  { parent: 'columns', child: 'contents', key: 'column_id', bytes: SHELL.content },
];

export async function checkTreeAccounts(projectId: string): Promise<TreeAccounts> {
  const db = new Client({ connectionString: process.env.LAYOUT_TEST_DATABASE_URL });
  await db.connect();
  try {
    const mismatches: string[] = [];
    for (const { parent, child, key, bytes } of LEVELS) {
      const { rows } = await db.query<{ id: string; detail: string }>(
        `SELECT p.id, format('%s %s: child_count %s (counted %s), children_bytes %s (counted %s)',
           '${parent}', p.id, p.child_count, coalesce(k.n, 0), p.children_bytes,
           coalesce(k.bytes, 0)) AS detail
         FROM ${parent} p LEFT JOIN (
           SELECT x.${key} AS parent_id, count(*) AS n, sum(${bytes}) + 2 * (count(*) - 1) AS bytes
           FROM ${child} x WHERE x.project_id = $1 GROUP BY x.${key}) k ON k.parent_id = p.id
         WHERE ${parent === 'projects' ? 'p.id' : 'p.project_id'} = $1
           AND (p.child_count <> coalesce(k.n, 0) OR p.children_bytes <> coalesce(k.bytes, 0))`,
        [projectId],
      );
      mismatches.push(...rows.map((row) => row.detail));
    }
    const { rows } = await db.query<{ bytes: string }>(
      `SELECT octet_length(json_build_object('_id', p.id, 'title', p.title, 'revision', p.revision,
         'createdAt', to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         'updatedAt', to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
         'blocks', '[]'::json)::text) + p.children_bytes AS bytes
       FROM projects p WHERE p.id = $1`,
      [projectId],
    );
    return { mismatches, storedTreeBytes: Number(rows[0]?.bytes ?? -1) };
  } finally {
    await db.end();
  }
}
