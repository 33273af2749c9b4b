import { DomainError, type OwnProblem } from '../../common/errors/domain-error';

/** An operation that cannot be undone needs a token obtained a short while ago. */
export class RecentSignInRequiredError extends DomainError {
  constructor(readonly withinMinutes: number) {
    super(
      `This needs a token obtained in the last ${withinMinutes} minutes: sign in again, then repeat it`,
    );
  }

  problem(): OwnProblem {
    return { kind: 'recentSignInRequired' };
  }
}
