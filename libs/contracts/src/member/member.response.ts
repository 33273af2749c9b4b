import { DATE_TIME_SCHEMA, HintSchema } from '../validation/schema-hints';
import { PROJECT_ROLES, type ProjectRole } from './project-role';
import { AccountRefResponse } from './account-ref.response';

/**
 * A member of a project, as `GET /projects/<p>/members` lists it (the owner first, then by the
 * time they were added) and as adding one or changing its role answers it.
 */
export class MemberResponse {
  /** The member's account. */
  account!: AccountRefResponse;

  /**
   * `owner`, `editor` or `viewer`.
   * @example "editor"
   */
  @HintSchema({ type: 'string', enum: PROJECT_ROLES })
  role!: ProjectRole;

  /**
   * When it became a member (ISO 8601 date-time, UTC); for the owner who created the project,
   * when the project was created.
   * @example "2026-11-29T10:15:30.000Z"
   */
  @HintSchema(DATE_TIME_SCHEMA)
  addedAt!: string;
}
