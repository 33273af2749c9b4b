import { DomainError, type OwnProblem } from './domain-error';

/**
 * A condition of the request is false for the resource as it is (`If-Match` names none of its
 * current tags, or `If-None-Match` names one or is `*`): nothing was changed.
 */
export class PreconditionFailedError extends DomainError {
  constructor(
    /** The resource's current entity tag, sent back so that the client can reload. */
    readonly currentTag: string,
    message = 'The resource has changed since it was read; reload it and try again',
  ) {
    super(message);
  }

  problem(): OwnProblem {
    return { kind: 'preconditionFailed', headers: { etag: this.currentTag } };
  }
}
