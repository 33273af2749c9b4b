// Error codes meaning "the database is not there right now", as opposed to a bug or bad input.
// P1000, P1003, P1010: the server refused the credentials or has no such database or role, a
// deployment's fault that the service cannot mend by itself, like a server that is down.
const PRISMA_UNAVAILABLE_CODES = new Set([
  'P1000',
  'P1001',
  'P1002',
  'P1003',
  'P1008',
  'P1010',
  'P1017',
  'P2024',
]);
const NODE_NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
]);
// SQLSTATE: 08 connection exception, 57P01-57P03 shutdown / cannot connect now, 53300 too many connections,
// 57014 statement timeout (a stuck server is unavailable for the caller's purpose), 3D000 no such
// database, 28000 / 28P01 a role or password the server refuses.
const SQLSTATE_UNAVAILABLE = /^(08...|57P0[1-3]|53300|57014|3D000|28000|28P01)$/;
const UNAVAILABLE_MESSAGES =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Can't reach database|Server has closed the connection|Client has encountered a connection error|Transaction already closed|Unable to start a transaction in the given time|expired transaction|Query read timeout|Client was closed and is not queryable|Cannot use a pool after calling end on the pool/i;

/**
 * Whether an error thrown by Prisma, its pg driver adapter or pg itself means the database is
 * unreachable (answer 503 and let the pool reconnect) rather than a defect (answer 500).
 *
 * Prisma reports a PostgreSQL error it has no code of its own for (such as 57P03 "the database
 * system is shutting down" / "is starting up") as P2039 (P2010 for raw queries), with the
 * adapter's error, which carries the SQLSTATE, under `meta.driverAdapterError`: that is
 * followed too, like `cause`.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  const { code, cause, message, originalCode, kind, meta } = error as Record<string, unknown>;
  if (typeof code === 'string') {
    if (PRISMA_UNAVAILABLE_CODES.has(code) || NODE_NETWORK_CODES.has(code)) return true;
    if (SQLSTATE_UNAVAILABLE.test(code)) return true;
  }
  if (typeof originalCode === 'string' && SQLSTATE_UNAVAILABLE.test(originalCode)) return true;
  if (
    kind === 'DatabaseNotReachable' ||
    kind === 'SocketTimeout' ||
    kind === 'ConnectionClosed' ||
    kind === 'TooManyConnections' ||
    kind === 'DatabaseDoesNotExist' ||
    kind === 'DatabaseAccessDenied' ||
    kind === 'AuthenticationFailed'
  ) {
    return true;
  }
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
  const adapterError =
    typeof meta === 'object' && meta !== null
      ? (meta as Record<string, unknown>).driverAdapterError
      : undefined;
  return isDatabaseUnavailable(cause, depth + 1) || isDatabaseUnavailable(adapterError, depth + 1);
}
