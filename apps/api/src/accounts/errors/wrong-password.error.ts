import { DomainError, type OwnProblem } from '../../common/errors/domain-error';

/**
 * The current password sent with a change of password is wrong. The caller is signed in, so
 * this is no 401 (its token is fine): 403, and it counts as a failed sign-in.
 */
export class WrongPasswordError extends DomainError {
  constructor() {
    super('The current password is wrong');
  }

  problem(): OwnProblem {
    return { kind: 'wrongPassword' };
  }
}
