import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { type FastifyRequest } from 'fastify';
import { PreconditionFailedError } from '../errors';
import {
  matchesStrongly,
  matchesWeakly,
  parseTagCondition,
  type TagCondition,
} from './entity-tags';

/**
 * The conditions a request sends: `If-Match` and `If-None-Match` for writes, `If-None-Match`
 * for reads (RFC 9110 §13).
 */
export class RequestConditions {
  static readonly NONE = new RequestConditions(undefined, undefined);

  constructor(
    private readonly ifMatch: TagCondition | 'invalid' | undefined,
    private readonly ifNoneMatch: TagCondition | 'invalid' | undefined,
  ) {}

  static fromHeaders(headers: Record<string, string | string[] | undefined>): RequestConditions {
    const header = (name: string) => {
      const value = headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    };
    return new RequestConditions(
      parseTagCondition(header('if-match')),
      parseTagCondition(header('if-none-match')),
    );
  }

  /**
   * Throws when a write's preconditions are false for the resource whose current tag is
   * `currentTag` (RFC 9110 §13.2.2, in its order): `If-Match` that names none of the current
   * tags (a header that is not a list of tags names none), then `If-None-Match` that names it
   * (weakly) or is `*`, which on a method other than GET or HEAD answers 412 too (§13.1.2).
   * Run inside the write's transaction, under its lock, with the tag read there, so that every
   * conditional write checks both where it checks anything.
   */
  assertPreconditions(currentTag: string): void {
    if (
      this.ifMatch !== undefined &&
      (this.ifMatch === 'invalid' || !matchesStrongly(this.ifMatch, currentTag))
    ) {
      throw new PreconditionFailedError(currentTag);
    }
    if (this.isNotModified(currentTag)) {
      throw new PreconditionFailedError(
        currentTag,
        'If-None-Match names the current tag of the resource (or is *, and the resource exists); nothing was changed',
      );
    }
  }

  /** Whether a read can answer 304: `If-None-Match` names the current tag (an invalid one is ignored). */
  isNotModified(currentTag: string): boolean {
    return (
      this.ifNoneMatch !== undefined &&
      this.ifNoneMatch !== 'invalid' &&
      matchesWeakly(this.ifNoneMatch, currentTag)
    );
  }

  get asksIfNoneMatch(): boolean {
    return this.ifNoneMatch !== undefined && this.ifNoneMatch !== 'invalid';
  }
}

/** The request's `If-Match` / `If-None-Match`, parsed. */
export const Conditions = createParamDecorator(
  (_data: unknown, context: ExecutionContext): RequestConditions =>
    RequestConditions.fromHeaders(context.switchToHttp().getRequest<FastifyRequest>().headers),
);
