import { DESCRIPTION_MAX_LENGTH } from '../limits';
import { IsPosition } from '../validation/is-position';
import { IsStringOfLength } from '../validation/is-string-of-length';
import { MayBeOmitted } from '../validation/may-be-omitted';
import { NestedObject } from '../validation/nested-object';
import { ToInstanceOf } from '../validation/to-instance';
import { BlockStyleDto } from './block-style.dto';

/** Body of `POST /projects/<projectId>/blocks`. */
export class CreateBlockDto {
  /**
   * At most 500 characters; required, but may be empty.
   * @example "Pricing"
   */
  @IsStringOfLength(0, DESCRIPTION_MAX_LENGTH)
  description!: string;

  /** Style of the block; members left out get their defaults. */
  @MayBeOmitted()
  @ToInstanceOf(() => BlockStyleDto)
  @NestedObject()
  style?: BlockStyleDto;

  /**
   * 0-based index to insert at; past the end (or left out) appends.
   * @example 0
   */
  @MayBeOmitted()
  @IsPosition()
  position?: number;
}
