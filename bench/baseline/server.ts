import Fastify, { type FastifyError } from 'fastify';
import { Pool } from 'pg';
import { accountOf, requireBearerToken } from './auth';
import { sendProblem } from './problems';
import { registerReads } from './reads';
import { registerWrites } from './writes';

/**
 * The bare minimum beside the service: plain Fastify, `pg` and hand-written SQL serving the
 * bench's scenarios with the contract's responses, on the service's tables. Configured like the
 * service: PORT, HOST, DATABASE_URL, DATABASE_POOL_SIZE (10), DATABASE_TIMEOUT_MS (5000).
 */
async function main() {
  const env = process.env;
  const timeoutMs = Number(env.DATABASE_TIMEOUT_MS ?? 5000);
  const pool = new Pool({
    connectionString: env.DATABASE_URL,
    max: Number(env.DATABASE_POOL_SIZE ?? 10),
    connectionTimeoutMillis: timeoutMs,
    statement_timeout: timeoutMs,
    query_timeout: timeoutMs + 1000,
    application_name: 'layout-baseline',
  });
  pool.on('error', (error) => console.error('idle database connection failed:', error.message));

  const app = Fastify({
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) console.error(`${request.method} ${request.url}:`, error);
    const kind =
      status === 415
        ? 'unsupported-media-type'
        : status === 413
          ? 'payload-too-large'
          : status === 400
            ? 'malformed-json'
            : 'internal';
    return sendProblem(reply, status < 500 ? status : 500, kind, status < 500 ? error.message : '');
  });
  app.setNotFoundHandler((_request, reply) =>
    sendProblem(reply, 404, 'not-found', 'no such route'),
  );

  app.get('/health/live', () => ({ status: 'ok' }));
  app.get('/health/ready', async () => {
    await pool.query('SELECT 1');
    return { status: 'ok' };
  });
  requireBearerToken(app, pool);
  app.get('/accounts/auth/me', (request) => {
    const { id, username } = accountOf(request);
    return { _id: id, username };
  });
  registerReads(app, pool);
  registerWrites(app, pool);

  const stop = () => {
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  await app.listen({ port: Number(env.PORT ?? 3001), host: env.HOST ?? '127.0.0.1' });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
