/** Who is calling: attached to the request by the bearer strategy. */
export interface AuthenticatedAccount {
  readonly id: string;
  readonly username: string;
}

/**
 * The caller with the bearer token of this request, by its SHA-256: what is stored, and what
 * revoking it names. What outlives the request on the token's behalf (an event stream, a
 * ticket for one) is tied to it, so that revoking the token ends it.
 */
export interface BearerSession extends AuthenticatedAccount {
  readonly token: { readonly hash: string };
}
