import { ContentResponse } from '../content/content.response';
import { HintSchema } from '../validation/schema-hints';
import { RENDERED_COLUMN_SIZES } from '../validation/to-column-size';

/** A column of a row, with its contents. */
export class ColumnResponse {
  /**
   * Identifier of the column.
   * @example "0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a87"
   */
  _id!: string;

  /**
   * Width on the 12-unit grid, rendered as a string.
   * @example "6"
   */
  @HintSchema({ type: 'string', enum: RENDERED_COLUMN_SIZES })
  size!: string;

  /** The column's contents, in order. */
  contents!: ContentResponse[];
}
