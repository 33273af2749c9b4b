import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { type FastifyRequest } from 'fastify';
import { PreconditionFailedError } from '../errors';
import {
  matchesStrongly,
  matchesWeakly,
  parseTagCondition,
  type TagCondition,
} from './entity-tags';

/** The conditions a request sends: `If-Match` for writes, `If-None-Match` for reads. */
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
   * Throws when `If-Match` does not name the current tag. Run inside the write's transaction,
   * under its lock, with the tag read there. A header that is not a list of tags matches none.
   */
  assertIfMatch(currentTag: string): void {
    if (this.ifMatch === undefined) return;
    if (this.ifMatch === 'invalid' || !matchesStrongly(this.ifMatch, currentTag)) {
      throw new PreconditionFailedError(currentTag);
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
