import { DESCRIPTION_MAX_LENGTH } from '../limits';
import { IsPosition } from '../validation/is-position';
import { IsStringOfLength } from '../validation/is-string-of-length';
import { MayBeOmitted } from '../validation/may-be-omitted';
import { NestedObject } from '../validation/nested-object';
import { ToInstanceOf } from '../validation/to-instance';
import { BlockStyleDto } from './block-style.dto';

/** Body of `PUT /projects/<projectId>/blocks/<blockId>`; members left out keep their value. */
export class UpdateBlockDto {
  /**
   * At most 500 characters.
   * @example "Pricing"
   */
  @MayBeOmitted()
  @IsStringOfLength(0, DESCRIPTION_MAX_LENGTH)
  description?: string;

  /** Replaces the whole style; members left out get their defaults. */
  @MayBeOmitted()
  @ToInstanceOf(() => BlockStyleDto)
  @NestedObject()
  style?: BlockStyleDto;

  /**
   * 0-based index to move the block to; past the end moves it to the end.
   * @example 0
   */
  @MayBeOmitted()
  @IsPosition()
  position?: number;
}
