import { DomainError, type OwnProblem } from './domain-error';

/** Also thrown for other accounts' resources and malformed ids: they do not exist for the caller. */
export class ResourceNotFoundError extends DomainError {
  constructor(readonly resource: string) {
    super(`${resource} not found`);
  }

  problem(): OwnProblem {
    return { kind: 'notFound' };
  }
}
