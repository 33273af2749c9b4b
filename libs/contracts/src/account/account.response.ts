import { DATE_TIME_SCHEMA, HintSchema } from '../validation/schema-hints';

/** An account, as returned when it is created. */
export class AccountResponse {
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

  /**
   * When the account was created (ISO 8601 date-time, UTC).
   * @example "2026-11-22T10:15:30.000Z"
   */
  @HintSchema(DATE_TIME_SCHEMA)
  createdAt!: string;
}
