import { DomainError } from './domain-error';

/** `If-Match` named none of the resource's current tags: nothing was changed. */
export class PreconditionFailedError extends DomainError {
  constructor(
    /** The resource's current entity tag, sent back so that the client can reload. */
    readonly currentTag: string,
  ) {
    super('The resource has changed since it was read; reload it and try again');
  }
}
