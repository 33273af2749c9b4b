import { DomainError, type OwnProblem } from './domain-error';

/** Missing, malformed, unknown or expired bearer token (RFC 6750). */
export class AuthenticationRequiredError extends DomainError {
  constructor(
    message: string,
    /** RFC 6750 error code for the WWW-Authenticate challenge; absent when no token was sent. */
    readonly bearerError?: 'invalid_request' | 'invalid_token',
  ) {
    super(message);
  }

  problem(): OwnProblem {
    const challenge = this.bearerError
      ? `Bearer realm="layout", error="${this.bearerError}", error_description="${this.message}"`
      : 'Bearer realm="layout"';
    return { kind: 'unauthorized', headers: { 'www-authenticate': challenge } };
  }
}
