import { DomainError } from './domain-error';

/** The same error for an unknown username and a wrong password: nothing tells them apart. */
export class InvalidCredentialsError extends DomainError {
  constructor() {
    super('Wrong username or password');
  }
}
