import { DomainError, type OwnProblem } from '../../common/errors/domain-error';

/**
 * The challenge a wrong username or password is answered with (RFC 9110 requires one on every
 * 401): the same scheme and realm as the bearer token's 401s, since a token is what the client
 * obtains here and then sends.
 */
export const INVALID_CREDENTIALS_CHALLENGE = 'Bearer realm="layout"';

/** The same error for an unknown username and a wrong password: nothing tells them apart. */
export class InvalidCredentialsError extends DomainError {
  /** For the `WWW-Authenticate` header of the 401. */
  readonly challenge = INVALID_CREDENTIALS_CHALLENGE;

  constructor() {
    super('Wrong username or password');
  }

  problem(): OwnProblem {
    return { kind: 'invalidCredentials', headers: { 'www-authenticate': this.challenge } };
  }
}
