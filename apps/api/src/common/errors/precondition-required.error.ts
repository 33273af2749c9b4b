import { DomainError, type OwnProblem } from './domain-error';

/** REQUIRE_IF_MATCH is on and a write came without If-Match. */
export class PreconditionRequiredError extends DomainError {
  constructor() {
    super('Send If-Match with the ETag of the resource you read');
  }

  problem(): OwnProblem {
    return { kind: 'preconditionRequired' };
  }
}
