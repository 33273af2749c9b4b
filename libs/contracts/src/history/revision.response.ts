import { ACCOUNT_REF_SCHEMA, type AccountRef } from '../member/account-ref.response';
import { HintSchema } from '../validation/schema-hints';

/** One revision of a project, as `GET /projects/<p>/revisions` lists it (newest first). */
export class RevisionResponse {
  /** The project's revision number: 1 when created, one higher after every change. */
  revision!: number;
  /** When it was committed (ISO 8601, UTC, milliseconds). */
  createdAt!: string;
  /**
   * What the request did: `<node>.<change>` (a RevisionOperation), such as `content.update`,
   * `row.move` or `project.restore`.
   * @example "content.update"
   */
  operation!: string;
  /** The path of the node the request addressed (for a create, the list it added to). */
  path!: string;
  /**
   * The account that made it, or `null` once that account is deleted.
   * @example {"_id":"0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a11","username":"ada"}
   */
  @HintSchema({ ...ACCOUNT_REF_SCHEMA, nullable: true })
  author!: AccountRef | null;
}
