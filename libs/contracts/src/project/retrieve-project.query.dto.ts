import { IsOneOf } from '../validation/is-one-of';
import { MayBeOmitted } from '../validation/may-be-omitted';

/** The formats a project's read can take besides its own: `portable`, the export. */
export const PROJECT_FORMATS = ['portable'] as const;
export type ProjectFormat = (typeof PROJECT_FORMATS)[number];

/** Query of `GET /projects/<projectId>`. */
export class RetrieveProjectQueryDto {
  /**
   * `portable`: the tree without the members a read adds (`_id`, `createdAt`, `updatedAt`,
   * `revision`), ready to be posted to `POST /projects` (here or on another deployment) as a
   * copy. Left out: the project as it is.
   * @example "portable"
   */
  @MayBeOmitted()
  @IsOneOf(PROJECT_FORMATS)
  format?: ProjectFormat;
}
