import { DomainError, type OwnProblem } from '../../common/errors/domain-error';

export class UsernameTakenError extends DomainError {
  constructor() {
    super('This username is already taken');
  }

  problem(): OwnProblem {
    return { kind: 'usernameTaken' };
  }
}
