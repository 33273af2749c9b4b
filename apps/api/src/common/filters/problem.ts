import { HttpException } from '@nestjs/common';
import { type FastifyReply } from 'fastify';
import { isDatabaseUnavailable } from '../errors/database-unavailability';
import { DatabaseUnavailableError, DomainError } from '../errors';
import { noteAnsweredProblem } from '../logging/answered-problem';
import {
  describeProblem,
  logLevelOf,
  type ProblemKind,
  type ProblemLogLevel,
} from './problem-catalog';

/** An RFC 9457 problem ready to send: status, headers and body. */
export interface Problem {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: ProblemBody;
  /** The level at which the access log writes the answer (see problem-catalog.ts). */
  readonly logLevel: ProblemLogLevel;
  /** Set for errors nobody anticipated: they are logged, and the client learns nothing of them. */
  readonly unexpected?: unknown;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  [extension: string]: unknown;
}

/** Sends `problem` as the answer: its status, its headers (and `headers`), its body. */
export function sendProblem(
  reply: FastifyReply,
  problem: Problem,
  headers: Record<string, string> = {},
): void {
  noteAnsweredProblem(reply, { type: problem.body.type, level: problem.logLevel });
  void reply
    .status(problem.status)
    .headers({ ...problem.headers, ...headers })
    .type('application/problem+json')
    .send(problem.body);
}

/** The problem of `kind` about the request at `instance`, with what this occurrence adds. */
export function problemOf(
  kind: ProblemKind,
  instance: string,
  detail?: string,
  extensions: Readonly<Record<string, unknown>> = {},
  headers: Readonly<Record<string, string>> = {},
): Problem {
  const { type, title, status } = describeProblem(kind);
  return {
    status,
    headers,
    body: { type, title, status, detail, instance, ...extensions },
    logLevel: logLevelOf(kind),
  };
}

/** Maps any thrown value to the problem the client receives. */
export function toProblem(error: unknown, instance: string): Problem {
  const make = (
    kind: ProblemKind,
    detail: string | undefined,
    extensions: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ): Problem => problemOf(kind, instance, detail, extensions, headers);

  if (error instanceof DomainError) {
    const problem = error.problem();
    if ('refusal' in problem) {
      const refused = toProblem(problem.refusal, instance);
      return { ...refused, body: { ...refused.body, ...problem.extensions } };
    }
    return make(problem.kind, error.message, problem.extensions, problem.headers);
  }
  if (isDatabaseUnavailable(error)) return toProblem(new DatabaseUnavailableError(), instance);
  // Nest wraps Fastify's own errors (body parsing, size limit) in an HttpException.
  const fastify = asFastifyError(error instanceof HttpException ? error.cause : error);
  if (fastify) return fromFastifyError(fastify, make);
  if (error instanceof HttpException) return fromHttpStatus(error.getStatus(), error.message, make);

  const internal = make('internal', undefined);
  return { ...internal, unexpected: error };
}

type Make = (
  kind: ProblemKind,
  detail: string | undefined,
  extensions?: Record<string, unknown>,
  headers?: Record<string, string>,
) => Problem;

function fromHttpStatus(status: number, message: string, make: Make): Problem {
  switch (status) {
    case 400:
      return make('validation', message);
    case 401:
      return make('unauthorized', message, {}, { 'www-authenticate': 'Bearer realm="layout"' });
    // Nothing in this service is forbidden rather than absent (another account's project is a
    // 404 too); a 403 only comes from a layer beneath, such as a static file server refusing a
    // path with `..` in it, and is no problem with the request body either.
    case 403:
      return make('notFound', 'No resource has this path');
    case 404:
      return make('notFound', message);
    // The path exists, not with this method; the caller adds the Allow header it knows.
    case 405:
      return make('methodNotAllowed', message);
    case 413:
      return make('payloadTooLarge', 'The request body is larger than 1 MiB');
    case 415:
      return make('unsupportedMediaType', 'Send the body as application/json');
    case 429:
      return make('rateLimited', message);
    default:
      return status >= 500 ? make('internal', undefined) : make('validation', message);
  }
}

interface FastifyLikeError {
  code: string;
  statusCode: number;
  message: string;
}

function asFastifyError(error: unknown): FastifyLikeError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, statusCode, message } = error as Record<string, unknown>;
  if (typeof statusCode !== 'number' || statusCode < 400 || statusCode >= 500) return undefined;
  return {
    code: typeof code === 'string' ? code : '',
    statusCode,
    message: typeof message === 'string' ? message : '',
  };
}

function fromFastifyError(error: FastifyLikeError, make: Make): Problem {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return make('payloadTooLarge', 'The request body is larger than 1 MiB');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return make('unsupportedMediaType', 'Send the body as application/json, in UTF-8');
    case 'LAYOUT_ERR_INVALID_UTF8_BODY':
      return make('malformedJson', 'The body is not valid UTF-8');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return make('malformedJson', 'The Content-Length header does not match the body');
    default:
      // Fastify's JSON parser reports syntax errors (and forbidden __proto__ keys) as plain 400s.
      if (error.statusCode === 400) return make('malformedJson', 'The body is not valid JSON');
      return fromHttpStatus(error.statusCode, error.message, make);
  }
}
