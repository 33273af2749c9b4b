import { DomainError } from './domain-error';

export class DatabaseUnavailableError extends DomainError {
  constructor() {
    super('The database is unreachable; try again shortly');
  }
}
