/** An account as another account sees it: a project's member, a revision's author. */
export interface AccountRef {
  _id: string;
  username: string;
}

/** An account as another account sees it (see AccountRef), as a class for the document. */
export class AccountRefResponse implements AccountRef {
  /**
   * Identifier of the account.
   * @example "0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a11"
   */
  _id!: string;

  /**
   * Its username.
   * @example "ada"
   */
  username!: string;
}

/**
 * What an author or a present account is, as JSON Schema, for the members that may also be
 * `null` (an author whose account was deleted).
 */
export const ACCOUNT_REF_SCHEMA = {
  type: 'object',
  properties: { _id: { type: 'string' }, username: { type: 'string' } },
  required: ['_id', 'username'],
  additionalProperties: false,
} as const;
