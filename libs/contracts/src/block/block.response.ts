import { RowResponse } from '../row/row.response';
import { BlockStyleResponse } from './block-style.response';
import { DATE_TIME_SCHEMA, HintSchema } from '../validation/schema-hints';

/** A block of a project, with its rows. */
export class BlockResponse {
  /**
   * Identifier of the block.
   * @example "0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a87"
   */
  _id!: string;

  /**
   * Free text.
   * @example "Pricing"
   */
  description!: string;

  /** The complete style, defaults filled in. */
  style!: BlockStyleResponse;

  /** The block's rows, in order. */
  rows!: RowResponse[];

  /**
   * When the block was created (ISO 8601 date-time, UTC).
   * @example "2026-11-22T10:15:30.000Z"
   */
  @HintSchema(DATE_TIME_SCHEMA)
  createdAt!: string;

  /**
   * When the block itself was last changed (ISO 8601 date-time, UTC).
   * @example "2026-11-22T10:20:00.000Z"
   */
  @HintSchema(DATE_TIME_SCHEMA)
  updatedAt!: string;
}
