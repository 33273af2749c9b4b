import { HintSchema } from '../validation/schema-hints';

/** A bearer token for the `Authorization` header. */
export class TokenResponse {
  /**
   * The token; send it as `Authorization: Bearer <token>`.
   * @example "Vf3pQ0m1a2Zr8yTq5nK7cX9bW4sE6uHj"
   */
  token!: string;

  /**
   * Always `Bearer`.
   * @example "Bearer"
   */
  tokenType!: 'Bearer';

  /**
   * Seconds until the token expires.
   * @example 3600
   */
  @HintSchema({ type: 'integer', minimum: 1 })
  expiresIn!: number;
}
