import { ContentStyleResponse } from '../content/content-style.response';

/** The complete style of a block, defaults filled in. */
export class BlockStyleResponse extends ContentStyleResponse {
  /**
   * A CSS colour.
   * @example "rgba(255, 255, 255, 1)"
   */
  backgroundColor!: string;
}
