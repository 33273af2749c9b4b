import {
  PROBLEM_STATUSES,
  PROBLEM_TITLES,
  PROBLEM_TYPES,
  type ProblemKind,
} from '@layout/contracts';

export type { ProblemKind };

/** The level at which the access log writes an answer, by what it tells an operator. */
export type ProblemLogLevel = 'info' | 'warn' | 'error';

/**
 * How loud each problem is in the log, said once per kind (a new kind must decide):
 * - `error`: a fault of the service, which an operator must look into;
 * - `warn`: a refusal the contract documents, sent with `Retry-After` (a budget spent, every
 *   event stream of the account open, the database unreachable or its connections taken, a
 *   commit whose outcome is unknown, the instance stopping): the service works as designed,
 *   and a run of them says something about the load or the database, not that something broke;
 * - `info`: the client's own request was wrong, or is not allowed.
 */
const LOG_LEVELS: Readonly<Record<ProblemKind, ProblemLogLevel>> = {
  validation: 'info',
  malformedJson: 'info',
  malformedRequest: 'info',
  headersTooLarge: 'info',
  expectationFailed: 'info',
  methodNotImplemented: 'info',
  unauthorized: 'info',
  invalidCredentials: 'info',
  wrongPassword: 'info',
  recentSignInRequired: 'info',
  forbiddenByRole: 'info',
  notFound: 'info',
  accountNotFound: 'info',
  methodNotAllowed: 'info',
  rowWidthExceeded: 'info',
  limitExceeded: 'info',
  preconditionFailed: 'info',
  preconditionRequired: 'info',
  usernameTaken: 'info',
  alreadyAMember: 'info',
  ownerMustRemain: 'info',
  idempotencyKeyReused: 'info',
  payloadTooLarge: 'info',
  unsupportedMediaType: 'info',
  assetInUse: 'info',
  rangeNotSatisfiable: 'info',
  assetStoreUnavailable: 'warn',
  requestTimeout: 'info',
  rateLimited: 'warn',
  tooManyStreams: 'warn',
  databaseUnavailable: 'warn',
  tooManyConcurrentRequests: 'warn',
  writeOutcomeUnknown: 'warn',
  shuttingDown: 'warn',
  internal: 'error',
};

/** Type, title and status of a problem kind, as published by the shared DTO library. */
export function describeProblem(kind: ProblemKind) {
  const type = PROBLEM_TYPES[kind];
  return { type, title: PROBLEM_TITLES[type], status: PROBLEM_STATUSES[type] };
}

/** The level at which an answer of this kind is logged (see LOG_LEVELS). */
export function logLevelOf(kind: ProblemKind): ProblemLogLevel {
  return LOG_LEVELS[kind];
}
