import { DomainError } from './domain-error';

/** Missing, malformed, unknown or expired bearer token (RFC 6750). */
export class AuthenticationRequiredError extends DomainError {
  constructor(
    message: string,
    /** RFC 6750 error code for the WWW-Authenticate challenge; absent when no token was sent. */
    readonly bearerError?: 'invalid_request' | 'invalid_token',
  ) {
    super(message);
  }
}
