import { DomainError, type OwnProblem } from '../../common/errors/domain-error';

/** Sign-up switched off by configuration: the operation does not exist on this server. */
export class SignUpDisabledError extends DomainError {
  constructor() {
    super('Sign-up is disabled on this server; ask an operator for an account');
  }

  /** A route switched off is a route that is not there. */
  problem(): OwnProblem {
    return { kind: 'notFound' };
  }
}
