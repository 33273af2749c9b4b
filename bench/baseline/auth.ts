import { createHash } from 'node:crypto';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { type Pool } from 'pg';
import { sendProblem } from './problems';
import { AUTHENTICATE } from './sql';

export interface Account {
  id: string;
  username: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    account: Account | null;
  }
}

// The service's shape check: anything else cannot be one of its tokens, so no lookup.
const TOKEN_SHAPE = /^[A-Za-z0-9\-._~+/]{1,512}=*$/;

/**
 * The service's bearer check, per request: the SHA-256 of the token looked up in access_tokens
 * joined with accounts, unexpired. Everything but /health needs it; a failure is a 401 with an
 * RFC 6750 challenge.
 */
export function requireBearerToken(app: FastifyInstance, pool: Pool): void {
  app.decorateRequest('account', null);
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/health/')) return;
    const account = await authenticate(pool, request);
    if (account === 'missing') return challenge(reply, undefined);
    if (account === 'invalid') return challenge(reply, 'invalid_token');
    request.account = account;
  });
}

async function authenticate(
  pool: Pool,
  request: FastifyRequest,
): Promise<Account | 'missing' | 'invalid'> {
  const match = /^Bearer +(\S+)$/i.exec(request.headers.authorization ?? '');
  if (!match) return 'missing';
  if (!TOKEN_SHAPE.test(match[1])) return 'invalid';
  const digest = createHash('sha256').update(match[1]).digest('hex');
  const { rows } = await pool.query<Account>(AUTHENTICATE, [digest]);
  return rows[0] ?? 'invalid';
}

function challenge(reply: FastifyReply, error: 'invalid_token' | undefined): FastifyReply {
  const params = error ? `realm="layout", error="${error}"` : 'realm="layout"';
  reply.header('www-authenticate', `Bearer ${params}`);
  return sendProblem(reply, 401, 'unauthorized', 'A valid bearer token is required');
}

/** Set by the hook on every route it does not skip. */
export function accountOf(request: FastifyRequest): Account {
  if (!request.account) throw new Error('route reached without authentication');
  return request.account;
}
