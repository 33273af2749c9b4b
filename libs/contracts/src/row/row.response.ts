import { ColumnResponse } from '../column/column.response';

/** A row of a block, with its columns. */
export class RowResponse {
  /**
   * Identifier of the row.
   * @example "0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a87"
   */
  _id!: string;

  /**
   * Free text, `""` when never set.
   * @example "Two columns"
   */
  description!: string;

  /** The row's columns, in order. */
  columns!: ColumnResponse[];
}
