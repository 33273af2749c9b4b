import { BodyMayBeOmitted } from '../validation/body-may-be-omitted';
import { IsPosition } from '../validation/is-position';
import { MayBeOmitted } from '../validation/may-be-omitted';

/**
 * Body of `POST /projects/<projectId>/blocks/<blockId>/duplicate`: where the copy goes. `{}`
 * puts it right after the original.
 */
@BodyMayBeOmitted()
export class DuplicateBlockDto {
  /**
   * 0-based index among the project's blocks; past the end: the end. Left out: right after the
   * original.
   * @example 0
   */
  @MayBeOmitted()
  @IsPosition()
  position?: number;
}
