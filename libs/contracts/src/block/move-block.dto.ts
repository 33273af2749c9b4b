import { IsPosition } from '../validation/is-position';

/** Body of `POST /projects/<projectId>/blocks/<blockId>/move`: where the block goes. */
export class MoveBlockDto {
  /**
   * 0-based index among the project's blocks; past the end: the end.
   * @example 0
   */
  @IsPosition()
  position!: number;
}
