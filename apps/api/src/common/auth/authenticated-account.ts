/** Who is calling: attached to the request by the bearer strategy. */
export interface AuthenticatedAccount {
  readonly id: string;
  readonly username: string;
}
