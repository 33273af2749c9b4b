import { DomainError } from './domain-error';

export class UsernameTakenError extends DomainError {
  constructor() {
    super('This username is already taken');
  }
}
