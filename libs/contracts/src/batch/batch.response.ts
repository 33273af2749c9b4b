import { HintSchema } from '../validation/schema-hints';

/** What one operation of a batch answered: what it alone would have answered. */
export class BatchResultResponse {
  /**
   * Its status: 201 for a create or a copy, 200 for an update or a move, 204 for a delete.
   * @example 201
   */
  @HintSchema({ type: 'integer', enum: [200, 201, 204] })
  status!: number;

  /**
   * Where the node it created, moved or copied now is (its `Location`).
   * @example "/projects/0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a87/blocks/0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a88"
   */
  location?: string;

  /**
   * The node's tag after the batch's operation (its `ETag`); none for a delete.
   * @example "\"r42\""
   */
  etag?: string;

  /** The node's document, as the operation alone answers it; none for a delete. */
  @HintSchema({ type: 'object' })
  body?: Record<string, unknown>;
}

/** A batch that committed: the revision it made, and each operation's result in order. */
export class BatchResponse {
  /**
   * The project's revision after the batch (the one it made, or the current one when no
   * operation changed anything).
   * @example 42
   */
  revision!: number;

  /** One result per operation, in the order they ran. */
  results!: BatchResultResponse[];
}
