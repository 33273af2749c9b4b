import { type FastifyInstance, type FastifyReply } from 'fastify';
import { type Pool } from 'pg';
import { accountOf } from './auth';
import { notFound } from './problems';
import { CONTENT, PROJECT_TREE, ROW_COLUMNS } from './sql';
import { allUuids } from './uuid7';

export interface RowParams {
  projectId: string;
  blockId: string;
  rowId: string;
}
export interface ColumnParams extends RowParams {
  columnId: string;
}
export interface ContentParams extends ColumnParams {
  contentId: string;
}

const ROW = '/projects/:projectId/blocks/:blockId/rows/:rowId';
export const COLUMN = `${ROW}/columns/:columnId`;
export const CONTENT_PATH = `${COLUMN}/contents/:contentId`;

/** Reads: one statement each, the response document built by PostgreSQL. */
export function registerReads(app: FastifyInstance, pool: Pool): void {
  app.get<{ Params: { projectId: string } }>('/projects/:projectId', async (request, reply) => {
    const { projectId } = request.params;
    if (!allUuids([projectId])) return notFound(reply, 'Project');
    const json = await one(pool, PROJECT_TREE, [projectId, accountOf(request).id]);
    return json === undefined ? notFound(reply, 'Project') : sendJson(reply, 200, json);
  });

  app.get<{ Params: RowParams }>(`${ROW}/columns`, async (request, reply) => {
    const { projectId, blockId, rowId } = request.params;
    if (!allUuids([projectId, blockId, rowId])) return notFound(reply, 'Row');
    const json = await one(pool, ROW_COLUMNS, [rowId, blockId, projectId, accountOf(request).id]);
    return json === undefined ? notFound(reply, 'Row') : sendJson(reply, 200, json);
  });

  app.get<{ Params: ContentParams }>(CONTENT_PATH, async (request, reply) => {
    const { projectId, blockId, rowId, columnId, contentId } = request.params;
    if (!allUuids([projectId, blockId, rowId, columnId, contentId])) {
      return notFound(reply, 'Content');
    }
    const json = await one(pool, CONTENT, [
      contentId,
      columnId,
      rowId,
      blockId,
      projectId,
      accountOf(request).id,
    ]);
    return json === undefined ? notFound(reply, 'Content') : sendJson(reply, 200, json);
  });
}

async function one(pool: Pool, sql: string, params: unknown[]): Promise<string | undefined> {
  const { rows } = await pool.query<{ json: string }>(sql, params);
  return rows[0]?.json;
}

/** Sends JSON text as PostgreSQL produced it. */
export function sendJson(reply: FastifyReply, status: number, json: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(json);
}
