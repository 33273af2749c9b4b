import { DomainError } from './domain-error';

/** Sign-up switched off by configuration: the operation does not exist on this server. */
export class SignUpDisabledError extends DomainError {
  constructor() {
    super('Sign-up is disabled on this server; ask an operator for an account');
  }
}
