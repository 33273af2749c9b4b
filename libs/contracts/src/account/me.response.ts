/** The account the token belongs to. */
export class MeResponse {
  /**
   * Identifier of the account.
   * @example "0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a87"
   */
  _id!: string;

  /**
   * The username as given at sign-up.
   * @example "ada@example.com"
   */
  username!: string;
}
