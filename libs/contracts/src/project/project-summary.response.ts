import { PROJECT_ROLES, type ProjectRole } from '../member/project-role';
import { DATE_TIME_SCHEMA, HintSchema } from '../validation/schema-hints';

/** The members of a project that its listing and its whole tree share. */
export class ProjectHeadResponse {
  /**
   * Identifier of the project.
   * @example "0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a87"
   */
  _id!: string;

  /**
   * Title of the project.
   * @example "Proposal for ACME"
   */
  title!: string;

  /**
   * 1 when the project was created, one higher after every committed request that changed
   * anything in its tree.
   * @example 7
   */
  @HintSchema({ type: 'integer', minimum: 1 })
  revision!: number;

  /**
   * When the project was created (ISO 8601 date-time, UTC).
   * @example "2026-11-22T10:15:30.000Z"
   */
  @HintSchema(DATE_TIME_SCHEMA)
  createdAt!: string;

  /**
   * When its latest revision was committed (ISO 8601 date-time, UTC).
   * @example "2026-11-22T10:20:00.000Z"
   */
  @HintSchema(DATE_TIME_SCHEMA)
  updatedAt!: string;
}

/**
 * A project as listed by `GET /projects` (every project the caller is a member of), without its
 * blocks, with the caller's role in it.
 */
export class ProjectSummaryResponse extends ProjectHeadResponse {
  /**
   * The caller's role in the project: `owner`, `editor` or `viewer`.
   * @example "owner"
   */
  @HintSchema({ type: 'string', enum: PROJECT_ROLES })
  role!: ProjectRole;
}
