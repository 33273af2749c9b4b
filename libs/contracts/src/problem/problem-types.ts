/** The `type` of every error body, one per distinct cause (RFC 9457 problem types). */
export const PROBLEM_TYPES = {
  validation: '/problems/validation',
  malformedJson: '/problems/malformed-json',
  malformedRequest: '/problems/malformed-request',
  headersTooLarge: '/problems/headers-too-large',
  unauthorized: '/problems/unauthorized',
  invalidCredentials: '/problems/invalid-credentials',
  notFound: '/problems/not-found',
  rowWidthExceeded: '/problems/row-width-exceeded',
  limitExceeded: '/problems/limit-exceeded',
  preconditionFailed: '/problems/precondition-failed',
  preconditionRequired: '/problems/precondition-required',
  usernameTaken: '/problems/username-taken',
  payloadTooLarge: '/problems/payload-too-large',
  unsupportedMediaType: '/problems/unsupported-media-type',
  rateLimited: '/problems/rate-limited',
  databaseUnavailable: '/problems/database-unavailable',
  internal: '/problems/internal',
} as const;

export type ProblemKind = keyof typeof PROBLEM_TYPES;
export type ProblemType = (typeof PROBLEM_TYPES)[ProblemKind];

/** The `title` that goes with each problem type: the same for every occurrence. */
export const PROBLEM_TITLES: Readonly<Record<ProblemType, string>> = Object.freeze({
  '/problems/validation': 'Invalid request body',
  '/problems/malformed-json': 'Malformed JSON',
  '/problems/malformed-request': 'Malformed HTTP request',
  '/problems/headers-too-large': 'Request headers too large',
  '/problems/unauthorized': 'Authentication required',
  '/problems/invalid-credentials': 'Invalid username or password',
  '/problems/not-found': 'Not found',
  '/problems/row-width-exceeded': 'Row width exceeded',
  '/problems/limit-exceeded': 'Limit exceeded',
  '/problems/precondition-failed': 'Precondition failed',
  '/problems/precondition-required': 'Precondition required',
  '/problems/username-taken': 'Username taken',
  '/problems/payload-too-large': 'Payload too large',
  '/problems/unsupported-media-type': 'Unsupported media type',
  '/problems/rate-limited': 'Too many requests',
  '/problems/database-unavailable': 'Database unavailable',
  '/problems/internal': 'Internal server error',
});

/** The HTTP status that goes with each problem type. */
export const PROBLEM_STATUSES: Readonly<Record<ProblemType, number>> = Object.freeze({
  '/problems/validation': 400,
  '/problems/malformed-json': 400,
  '/problems/malformed-request': 400,
  '/problems/headers-too-large': 431,
  '/problems/unauthorized': 401,
  '/problems/invalid-credentials': 401,
  '/problems/not-found': 404,
  '/problems/row-width-exceeded': 409,
  '/problems/limit-exceeded': 409,
  '/problems/precondition-failed': 412,
  '/problems/precondition-required': 428,
  '/problems/username-taken': 409,
  '/problems/payload-too-large': 413,
  '/problems/unsupported-media-type': 415,
  '/problems/rate-limited': 429,
  '/problems/database-unavailable': 503,
  '/problems/internal': 500,
});
