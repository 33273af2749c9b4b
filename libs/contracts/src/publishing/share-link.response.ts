import { DATE_TIME_SCHEMA, HintSchema } from '../validation/schema-hints';

/** A share link of a project, as its creation and its listing answer it. */
export class ShareLinkResponse {
  /**
   * Identifier of the link (revoke it with `DELETE /projects/<p>/links/<_id>`).
   * @example "0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a90"
   */
  _id!: string;

  /**
   * `/shared/<token>`, relative to the service, in the answer that created the link only: the
   * token is kept as a hash and cannot be shown again (`null` in a listing).
   * @example "/shared/3q2-7wPpQ1m0ZzKxVnB4cD8eF6gH5iJ9kL2mN0oP7rS"
   */
  @HintSchema({ type: 'string', nullable: true })
  url!: string | null;

  /**
   * The revision of the project the link shows.
   * @example 7
   */
  revision!: number;

  /**
   * When the link was created (ISO 8601 date-time, UTC).
   * @example "2026-11-29T10:15:30.000Z"
   */
  @HintSchema(DATE_TIME_SCHEMA)
  createdAt!: string;

  /**
   * When the link stops working (ISO 8601 date-time, UTC), or `null`: never.
   * @example null
   */
  @HintSchema({ ...DATE_TIME_SCHEMA, nullable: true })
  expiresAt!: string | null;

  /**
   * How many times the link was opened successfully, on any instance.
   * @example 3
   */
  views!: number;

  /**
   * When it was last opened (ISO 8601 date-time, UTC), or `null`: never.
   * @example "2026-11-29T11:00:00.000Z"
   */
  @HintSchema({ ...DATE_TIME_SCHEMA, nullable: true })
  lastViewedAt!: string | null;
}
