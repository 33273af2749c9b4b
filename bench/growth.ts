import { type Client } from 'pg';

/**
 * Filler for the growth runs: other accounts' projects, inserted straight into the service's
 * tables, one INSERT … SELECT FROM generate_series per table. Every filler project has the seeded
 * shape (5 blocks × 3 rows × 3 columns of size 4 × 2 contents), so every table grows, not only
 * contents. Ids are computed from the series number (kind in the first group, number in the
 * last), which lets a child name its parent without a join, keeps inserts in index order, and
 * cannot collide with the service's UUIDv7 ids (those start with a 2020s timestamp).
 */
const PER_PROJECT = { blocks: 5, rows: 15, columns: 45, contents: 90 };
const PROJECTS_PER_ACCOUNT = 10;
const KIND = { account: 1, project: 3, block: 4, row: 5, column: 6, content: 7 };

const id = (kind: number, n: string) =>
  `(lpad(to_hex(${kind}), 8, '0') || '-0000-7000-8000-' || lpad(to_hex(${n}), 12, '0'))::uuid`;

const CONTENT_STYLE = JSON.stringify({
  backgroundImage: '',
  backgroundRepeat: 'no-repeat',
  backgroundSize: 'cover',
  backgroundPosition: 'center center',
  opacity: 1,
});
const BLOCK_STYLE = JSON.stringify({
  backgroundImage: '',
  backgroundRepeat: 'no-repeat',
  backgroundSize: 'cover',
  backgroundPosition: 'center center',
  opacity: 1,
  backgroundColor: 'rgba(255, 255, 255, 1)',
});

export interface GrowthStep {
  /** Filler contents in the database after the step. */
  contents: number;
  inserts: { table: string; rows: number; seconds: number }[];
  insertSeconds: number;
  /** VACUUM (ANALYZE) afterwards, as autovacuum would eventually do. */
  vacuumSeconds: number;
}

/** Adds filler until `to` filler contents exist (`from` exist already). */
export async function growFiller(db: Client, from: number, to: number): Promise<GrowthStep> {
  const projects = [Math.ceil(from / PER_PROJECT.contents), Math.ceil(to / PER_PROJECT.contents)];
  const accounts = projects.map((count) => Math.ceil(count / PROJECTS_PER_ACCOUNT));
  const range = (per: number) => [projects[0] * per, projects[1] * per] as const;

  const statements: { table: string; range: readonly [number, number]; sql: string }[] = [
    {
      table: 'accounts',
      range: [accounts[0], accounts[1]],
      sql: `INSERT INTO accounts (id, username, username_key, password_hash)
        SELECT ${id(KIND.account, 'n')}, 'filler-' || n, 'filler-' || n, 'no password'
        FROM generate_series($1::bigint, $2::bigint - 1) n`,
    },
    {
      // One live and one expired token per account: the token lookup runs on every request.
      table: 'access_tokens',
      range: [accounts[0], accounts[1]],
      sql: `INSERT INTO access_tokens (token_hash, account_id, expires_at)
        SELECT encode(sha256(('filler-' || n || '-' || t)::bytea), 'hex'), ${id(KIND.account, 'n')},
          now() + CASE t WHEN 0 THEN interval '1 hour' ELSE interval '-1 day' END
        FROM generate_series($1::bigint, $2::bigint - 1) n, generate_series(0, 1) t`,
    },
    {
      table: 'projects',
      range: range(1),
      sql: `INSERT INTO projects (id, owner_id, title, updated_at)
        SELECT ${id(KIND.project, 'n')}, ${id(KIND.account, `n / ${PROJECTS_PER_ACCOUNT}`)},
          'Filler proposal ' || n, now()
        FROM generate_series($1::bigint, $2::bigint - 1) n`,
    },
    {
      table: 'blocks',
      range: range(PER_PROJECT.blocks),
      sql: `INSERT INTO blocks (id, project_id, position, description, style, updated_at)
        SELECT ${id(KIND.block, 'n')}, ${id(KIND.project, 'n / 5')}, n % 5, 'Block ' || n,
          '${BLOCK_STYLE}'::jsonb, now()
        FROM generate_series($1::bigint, $2::bigint - 1) n`,
    },
    {
      table: 'rows',
      range: range(PER_PROJECT.rows),
      sql: `INSERT INTO rows (id, project_id, block_id, position, description)
        SELECT ${id(KIND.row, 'n')}, ${id(KIND.project, 'n / 15')}, ${id(KIND.block, 'n / 3')},
          n % 3, 'Row ' || n
        FROM generate_series($1::bigint, $2::bigint - 1) n`,
    },
    {
      table: 'columns',
      range: range(PER_PROJECT.columns),
      sql: `INSERT INTO columns (id, project_id, row_id, position, size)
        SELECT ${id(KIND.column, 'n')}, ${id(KIND.project, 'n / 45')}, ${id(KIND.row, 'n / 3')},
          n % 3, 4
        FROM generate_series($1::bigint, $2::bigint - 1) n`,
    },
    {
      // Exactly `to` contents: the last project may be partly filled (valid: empty columns).
      table: 'contents',
      range: [from, to],
      sql: `INSERT INTO contents (id, project_id, column_id, position, type, style, data)
        SELECT ${id(KIND.content, 'n')}, ${id(KIND.project, 'n / 90')}, ${id(KIND.column, 'n / 2')},
          n % 2,
          CASE n % 2 WHEN 0 THEN 'text' ELSE 'image' END::content_type,
          '${CONTENT_STYLE}'::jsonb,
          CASE n % 2
            WHEN 0 THEN jsonb_build_object('html', '<h2>Section ' || n || '</h2><p>' ||
              repeat('Filler text with <strong>formatting</strong> and a <a href="https://example.com">link</a>. ', 4) ||
              '</p>')
            ELSE jsonb_build_object('url', 'https://cdn.example.com/filler/' || n || '.jpg',
              'width', '600px', 'height', 'auto', 'alt', 'Filler image ' || n)
          END
        FROM generate_series($1::bigint, $2::bigint - 1) n`,
    },
  ];

  const inserts: GrowthStep['inserts'] = [];
  const started = performance.now();
  for (const statement of statements) {
    const [first, end] = statement.range;
    if (end <= first) continue;
    const t0 = performance.now();
    await db.query(statement.sql, [first, end]);
    inserts.push({
      table: statement.table,
      rows: end - first,
      seconds: (performance.now() - t0) / 1000,
    });
  }
  const insertSeconds = (performance.now() - started) / 1000;
  const t0 = performance.now();
  await db.query(
    'VACUUM (ANALYZE) accounts, access_tokens, projects, blocks, rows, columns, contents',
  );
  return { contents: to, inserts, insertSeconds, vacuumSeconds: (performance.now() - t0) / 1000 };
}
