import { type FastifyInstance, type FastifyRequest } from 'fastify';
import { type Pool, type PoolClient } from 'pg';
import { accountOf } from './auth';
import { parseContentBody } from './content-body';
import { invalid, notFound, sendProblem } from './problems';
import { COLUMN, type ColumnParams, CONTENT_PATH, type ContentParams, sendJson } from './reads';
import {
  DELETE_CONTENT,
  INSERT_CONTENT,
  LOCK_COLUMN,
  LOCK_ROW_OF_COLUMN,
  OPEN_CONTENT_SLOT,
  RESIZE_COLUMN,
  USED_BY_OTHERS,
} from './sql';
import { allUuids, uuid7 } from './uuid7';

const ROW_WIDTH = 12;

/**
 * The writes the scenarios use, each in one transaction that first locks what the service locks:
 * the column for a change to its contents, the row for a resize (so the width check holds under
 * concurrent requests).
 */
export function registerWrites(app: FastifyInstance, pool: Pool): void {
  app.post<{ Params: ColumnParams }>(`${COLUMN}/contents`, async (request, reply) => {
    const { projectId, blockId, rowId, columnId } = request.params;
    if (!allUuids([projectId, blockId, rowId, columnId])) return notFound(reply, 'Column');
    const parsed = parseContentBody(request.body);
    if (!parsed.ok) return invalid(reply, parsed.errors);
    const { type, style, data, position } = parsed.value;
    const id = uuid7();
    const json = await transaction(pool, async (client) => {
      const lock = [columnId, rowId, blockId, projectId, accountOf(request).id];
      if ((await client.query(LOCK_COLUMN, lock)).rowCount === 0) return undefined;
      if (position !== undefined) await client.query(OPEN_CONTENT_SLOT, [columnId, position]);
      const { rows } = await client.query<{ json: string }>(INSERT_CONTENT, [
        id,
        projectId,
        columnId,
        position ?? null,
        type,
        JSON.stringify(style),
        JSON.stringify(data),
      ]);
      return rows[0].json;
    });
    if (json === undefined) return notFound(reply, 'Column');
    reply.header('location', `${collectionOf(request)}/${id}`);
    return sendJson(reply, 201, json);
  });

  app.put<{ Params: ColumnParams }>(COLUMN, async (request, reply) => {
    const { projectId, blockId, rowId, columnId } = request.params;
    if (!allUuids([projectId, blockId, rowId, columnId])) return notFound(reply, 'Column');
    const body = request.body as Record<string, unknown> | null;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return invalid(reply, [{ pointer: '', detail: 'must be an object' }]);
    }
    const unsupported = Object.keys(body).filter((key) => key !== '_id' && key !== 'size');
    if (unsupported.length > 0 || body.size === undefined) {
      // Moving columns and replacing contents are not among the scenarios.
      return sendProblem(reply, 501, 'not-implemented', 'the baseline only resizes columns');
    }
    if (body._id !== undefined && body._id !== columnId) {
      return invalid(reply, [{ pointer: '/_id', detail: 'must be the id in the path' }]);
    }
    const size = columnSize(body.size);
    if (size === undefined) {
      return invalid(reply, [{ pointer: '/size', detail: 'must be an integer from 1 to 12' }]);
    }
    const outcome = await transaction(pool, async (client) => {
      const lock = [rowId, blockId, projectId, accountOf(request).id, columnId];
      if ((await client.query(LOCK_ROW_OF_COLUMN, lock)).rowCount === 0) return 'not-found';
      const { rows } = await client.query<{ json: string }>(RESIZE_COLUMN, [columnId, size]);
      if (rows[0]) return rows[0].json;
      const used = await client.query<{ used: number }>(USED_BY_OTHERS, [columnId]);
      return { availableSize: Math.max(0, ROW_WIDTH - used.rows[0].used) };
    });
    if (outcome === 'not-found') return notFound(reply, 'Column');
    if (typeof outcome === 'string') return sendJson(reply, 200, outcome);
    return sendProblem(reply, 409, 'row-width-exceeded', 'the row would exceed 12 units', outcome);
  });

  app.delete<{ Params: ContentParams }>(CONTENT_PATH, async (request, reply) => {
    const { projectId, blockId, rowId, columnId, contentId } = request.params;
    if (!allUuids([projectId, blockId, rowId, columnId, contentId])) {
      return notFound(reply, 'Content');
    }
    const deleted = await transaction(pool, async (client) => {
      const lock = [columnId, rowId, blockId, projectId, accountOf(request).id];
      if ((await client.query(LOCK_COLUMN, lock)).rowCount === 0) return false;
      const { rows } = await client.query<{ deleted: number }>(DELETE_CONTENT, [
        contentId,
        columnId,
      ]);
      return rows[0].deleted > 0;
    });
    return deleted ? reply.code(204).send() : notFound(reply, 'Content');
  });
}

/** 1..12, as a JSON number or its string form, as the contract accepts it. */
function columnSize(value: unknown): number | undefined {
  const size = typeof value === 'string' && /^\d{1,2}$/.test(value) ? Number(value) : value;
  return Number.isInteger(size) && (size as number) >= 1 && (size as number) <= 12
    ? (size as number)
    : undefined;
}

function collectionOf(request: FastifyRequest): string {
  return request.url.split('?')[0].replace(/\/+$/, '');
}

/**
 * BEGIN … COMMIT on one pooled connection. A "not found" or a refused resize has changed
 * nothing by then, so it commits too; only an error rolls back.
 */
async function transaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
