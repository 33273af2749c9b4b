import { type ClientBase } from 'pg';

/**
 * Rows of the tree written straight in SQL, below the service: for the tests that read what
 * PostgreSQL itself enforces (the schema's keys), on the caller's connection and transaction.
 */
export async function insertAccount(client: ClientBase, username: string): Promise<string> {
  return idOf(
    client,
    `INSERT INTO accounts (username, username_key, password_hash) VALUES ($1, $1, 'x')
     RETURNING id`,
    [username],
  );
}

export async function insertProject(client: ClientBase, ownerId: string): Promise<string> {
  return idOf(client, `INSERT INTO projects (owner_id, title) VALUES ($1, 'p') RETURNING id`, [
    ownerId,
  ]);
}

export async function insertBlock(client: ClientBase, projectId: string): Promise<string> {
  return idOf(
    client,
    `INSERT INTO blocks (project_id, sort_key, description, style, revision, list_revision)
     VALUES ($1, 1, '', '{}', 1, 1) RETURNING id`,
    [projectId],
  );
}

/** A row of `projectId` under the block `blockId` (which may lie elsewhere, or nowhere). */
export async function insertRow(
  client: ClientBase,
  projectId: string,
  blockId: string,
): Promise<void> {
  await client.query(
    `INSERT INTO rows (project_id, block_id, sort_key, description, revision, list_revision)
     VALUES ($1, $2, 1, '', 1, 1)`,
    [projectId, blockId],
  );
}

/** A name no other test run has taken. */
export function uniqueUsername(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

async function idOf(client: ClientBase, sql: string, values: unknown[]): Promise<string> {
  const { rows } = await client.query<{ id: string }>(sql, values);
  return rows[0].id;
}
