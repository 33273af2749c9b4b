import { PROJECT_ROLES, type ProjectRole } from '../member/project-role';
import { HintSchema } from '../validation/schema-hints';
import { FieldErrorResponse } from './field-error.response';
import { PROBLEM_TYPES } from './problem-types';

/** An error body (RFC 9457 `application/problem+json`). */
export class ProblemDetailsResponse {
  /**
   * The kind of problem, one per distinct cause (see the `/problems/...` list).
   * @example "/problems/validation"
   */
  @HintSchema({ type: 'string', enum: Object.values(PROBLEM_TYPES) })
  type!: string;

  /**
   * Short summary of the kind of problem; the same for every occurrence.
   * @example "Invalid request body"
   */
  title!: string;

  /**
   * The HTTP status code.
   * @example 400
   */
  @HintSchema({ type: 'integer', minimum: 400, maximum: 599 })
  status!: number;

  /**
   * Explanation of this occurrence.
   * @example "size must be an integer from 1 to 12"
   */
  detail?: string;

  /**
   * The request path.
   * @example "/projects/0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a87/blocks"
   */
  instance?: string;

  /** The invalid members of the request body (validation problems only). */
  errors?: FieldErrorResponse[];

  /**
   * How much of the row's width of 12 is left for this column (row width problems only).
   * @example 4
   */
  @HintSchema({ type: 'integer', minimum: 0 })
  availableSize?: number;

  /**
   * The limit that the request would have exceeded: a number of items, or bytes for the size
   * of a project (limit problems only).
   * @example 1000
   */
  @HintSchema({ type: 'integer', minimum: 0 })
  limit?: number;

  /**
   * The 0-based index of the operation of a batch that was refused (batches only): the problem
   * is that operation's own.
   * @example 3
   */
  @HintSchema({ type: 'integer', minimum: 0 })
  operationIndex?: number;

  /**
   * The member of the body that broke the rule, as an RFC 6901 pointer (a node of a tree that a
   * create makes, or a content's data that is too large).
   * @example "/blocks/2/rows/0/columns/3/size"
   */
  @HintSchema({ type: 'string' })
  pointer?: string;

  /**
   * Where an asset is still named: the paths of the contents and blocks whose image `url` or
   * `backgroundImage` is the asset's (asset-in-use problems only).
   */
  @HintSchema({ type: 'array', items: { type: 'string' } })
  paths?: string[];

  /**
   * The caller's role in the project (forbidden-by-role problems only).
   * @example "viewer"
   */
  @HintSchema({ type: 'string', enum: PROJECT_ROLES })
  role?: ProjectRole;

  /**
   * The least role that may do what was asked (forbidden-by-role problems only).
   * @example "editor"
   */
  @HintSchema({ type: 'string', enum: PROJECT_ROLES })
  required?: ProjectRole;
}
