import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  applyPendingMigrations,
  findMigrationsDir,
} from '../../apps/api/src/database-server/migrations-runner';
import { projectJson } from '../../apps/api/src/layout/repositories/sql/documents.sql';
import { createFreshDatabase } from '../resilience/support/databases';

const MIGRATION = 'json_style_and_data';
const quiet = { log: () => undefined, warn: () => undefined };

/**
 * The migration that stores styles and data as json instead of jsonb keeps every document's
 * bytes, and so the tags and the stored sizes: run on a database of its own, with data written
 * as jsonb (in the key order and spacing jsonb normalises away) before it.
 */
describe(`migration ${MIGRATION}`, () => {
  let database: { url: string; drop(): Promise<void> };
  let url: string;
  let before: string;
  let client: Client;

  beforeAll(async () => {
    database = await createFreshDatabase('layout_migration');
    url = database.url;
    before = await mkdtemp(join(tmpdir(), 'layout-migrations-'));
    // The migrations before it: those after it (the history's triggers on these columns, say)
    // assume it ran.
    const all = findMigrationsDir();
    const entries = (await readdir(all)).sort();
    const at = entries.findIndex((entry) => entry.endsWith(`_${MIGRATION}`));
    for (const entry of entries.slice(0, at)) {
      await cp(join(all, entry), join(before, entry), { recursive: true });
    }
    if (entries.includes('migration_lock.toml')) {
      await cp(join(all, 'migration_lock.toml'), join(before, 'migration_lock.toml'));
    }
    await applyPendingMigrations(url, quiet, before);
    client = new Client({ connectionString: url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await database?.drop();
    await rm(before, { recursive: true, force: true });
  });

  it('keeps the bytes of every document', async () => {
    const { rows: column } = await client.query<{ type: string }>(
      `SELECT data_type AS type FROM information_schema.columns
       WHERE table_name = 'contents' AND column_name = 'data'`,
    );
    expect(column[0].type).toBe('jsonb');
    const project = await seed();
    const document = () =>
      client
        .query<{ json: string }>(
          `SELECT (${projectJson('p')})::text AS json FROM projects p WHERE p.id = $1`,
          [project],
        )
        .then((result) => result.rows[0].json);
    const jsonbDocument = await document();
    expect(jsonbDocument).toContain('"style" : {"opacity": 0.5, "backgroundSize": "cover"');

    const applied = await applyPendingMigrations(url, quiet);
    expect(applied[0]).toMatch(new RegExp(`_${MIGRATION}$`));
    const { rows: after } = await client.query<{ type: string }>(
      `SELECT data_type AS type FROM information_schema.columns
       WHERE table_name = 'contents' AND column_name = 'data'`,
    );
    expect(after[0].type).toBe('json');
    expect(await document()).toBe(jsonbDocument);
  });

  /** A project with a block and a content, written as the service wrote them before: jsonb. */
  async function seed(): Promise<string> {
    const query = async (sql: string, values: unknown[] = []) =>
      (await client.query<{ id: string }>(sql, values)).rows[0]?.id;
    const account = await query(
      `INSERT INTO accounts (username, username_key, password_hash) VALUES ('m', 'm', 'x') RETURNING id`,
    );
    const project = await query(
      `INSERT INTO projects (owner_id, title) VALUES ($1, 'Before') RETURNING id`,
      [account],
    );
    const block = await query(
      `INSERT INTO blocks (project_id, sort_key, description, style, revision, list_revision)
       VALUES ($1, 1, 'b', $2::jsonb, 1, 1) RETURNING id`,
      [project, '{"backgroundColor":"red",   "opacity":1}'],
    );
    const row = await query(
      `INSERT INTO rows (project_id, block_id, sort_key, description, revision, list_revision)
       VALUES ($1, $2, 1, '', 1, 1) RETURNING id`,
      [project, block],
    );
    const columnId = await query(
      `INSERT INTO columns (project_id, row_id, sort_key, size, revision, list_revision)
       VALUES ($1, $2, 1, 6, 1, 1) RETURNING id`,
      [project, row],
    );
    await query(
      `INSERT INTO contents (project_id, column_id, sort_key, type, style, data, revision)
       VALUES ($1, $2, 1, 'text', $3::jsonb, $4::jsonb, 1)`,
      [
        project,
        columnId,
        '{"backgroundSize":"cover","opacity":0.5}',
        '{"html":"<p>Zoë</p>","z":{"b":1,"a":[1,2]}}',
      ],
    );
    return project;
  }
});
