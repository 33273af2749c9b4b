import { DomainError, type OwnProblem } from './domain-error';

export class DatabaseUnavailableError extends DomainError {
  constructor() {
    super('The database is unreachable or did not answer in time; try again shortly');
  }

  problem(): OwnProblem {
    return { kind: 'databaseUnavailable', headers: { 'retry-after': '5' } };
  }
}
