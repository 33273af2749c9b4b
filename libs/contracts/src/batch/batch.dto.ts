import { BATCH_OPERATIONS_MAX, BATCH_PATH_MAX_LENGTH } from '../limits';
import { CreateBlockDto } from '../block/create-block.dto';
import { DuplicateBlockDto } from '../block/duplicate-block.dto';
import { MoveBlockDto } from '../block/move-block.dto';
import { UpdateBlockDto } from '../block/update-block.dto';
import { CreateColumnDto } from '../column/create-column.dto';
import { DuplicateColumnDto } from '../column/duplicate-column.dto';
import { MoveColumnDto } from '../column/move-column.dto';
import { UpdateColumnDto } from '../column/update-column.dto';
import { CreateContentDto } from '../content/create-content.dto';
import { DuplicateContentDto } from '../content/duplicate-content.dto';
import { MoveContentDto } from '../content/move-content.dto';
import { UpdateContentDto } from '../content/update-content.dto';
import { CreateRowDto } from '../row/create-row.dto';
import { DuplicateRowDto } from '../row/duplicate-row.dto';
import { MoveRowDto } from '../row/move-row.dto';
import { UpdateRowDto } from '../row/update-row.dto';
import { IsOneOf } from '../validation/is-one-of';
import { IsStringOfLength } from '../validation/is-string-of-length';
import { MayBeOmitted } from '../validation/may-be-omitted';
import { NestedObjectList } from '../validation/nested-object';
import { isObjectValue } from '../validation/plain-object';
import { Rule } from '../validation/rule';
import { HintVariants, type SchemaHint } from '../validation/schema-hints';
import { AsSent, ToInstancesOf } from '../validation/to-instance';

/** The methods of a batch's operations: a create, move or copy (`POST`), an update, a delete. */
export const BATCH_METHODS = ['POST', 'PUT', 'DELETE'] as const;
export type BatchMethod = (typeof BATCH_METHODS)[number];

/** A name a batch gives the node an operation makes: 1 to 64 letters, digits, `_` and `-`. */
export const BATCH_REF = /^[A-Za-z0-9_-]{1,64}$/;

/** The bodies each method takes, for documentation: the operations' own DTOs. */
const bodiesOf = (models: readonly (new () => object)[]): SchemaHint => ({
  anyOf: models.map((model) => ({ model: () => model })),
});

const POST_BODIES = bodiesOf([
  CreateBlockDto,
  CreateRowDto,
  CreateColumnDto,
  CreateContentDto,
  MoveBlockDto,
  MoveRowDto,
  MoveColumnDto,
  MoveContentDto,
  DuplicateBlockDto,
  DuplicateRowDto,
  DuplicateColumnDto,
  DuplicateContentDto,
]);
const PUT_BODIES = bodiesOf([UpdateBlockDto, UpdateRowDto, UpdateColumnDto, UpdateContentDto]);

/**
 * One operation of a batch: a write of this project's tree as it would be sent alone (its
 * method, path, body and `If-Match`), run after the operations before it and seeing them.
 */
@HintVariants({
  discriminator: 'method',
  variants: {
    POST: { body: POST_BODIES },
    PUT: { body: PUT_BODIES, ref: null },
    DELETE: { body: null, ref: null },
  },
  variantName: (className, method) =>
    className.replace('Batch', `Batch${method[0]}${method.slice(1).toLowerCase()}`),
})
export class BatchOperationDto {
  /** `POST` (a create, a move or a copy), `PUT` (an update) or `DELETE`. */
  @IsOneOf(BATCH_METHODS)
  method!: BatchMethod;

  /**
   * The operation's path, inside this project; `$<ref>` stands for the id of the node an earlier
   * operation of the batch named `<ref>`.
   * @example "/projects/0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a87/blocks/0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a88/rows/$newRow/columns"
   */
  @IsStringOfLength(1, BATCH_PATH_MAX_LENGTH)
  path!: string;

  /**
   * The operation's body, as it alone would be sent; a member that takes an id (`blockId`,
   * `rowId`, `columnId`, `contents[]._id`) may be `"$<ref>"`. None for a `DELETE`.
   */
  @MayBeOmitted()
  @AsSent()
  @Rule('isObject', isObjectValue, 'must be an object', { type: 'object' })
  body?: Record<string, unknown>;

  /**
   * The tag the operation's node must still have (its `If-Match`, as the operation alone).
   * @example "\"r41\""
   */
  @MayBeOmitted()
  @IsStringOfLength(1, BATCH_PATH_MAX_LENGTH)
  ifMatch?: string;

  /**
   * A name for the node this operation makes (a create or a copy), unique in the batch: later
   * operations name it `$<ref>`.
   * @example "newRow"
   */
  @MayBeOmitted()
  @Rule(
    'isBatchRef',
    (value) => typeof value === 'string' && BATCH_REF.test(value),
    'must be 1 to 64 letters, digits, "_" or "-"',
    { type: 'string', pattern: BATCH_REF.source },
  )
  ref?: string;
}

/**
 * Several writes of one project's tree as one: in order, each checked as if sent alone at that
 * point, in one transaction that makes one revision, all or nothing.
 */
export class BatchDto {
  /** The operations, 1 to 100, in the order they run. */
  @ToInstancesOf(() => BatchOperationDto)
  @NestedObjectList(BATCH_OPERATIONS_MAX, 1)
  operations!: BatchOperationDto[];
}
