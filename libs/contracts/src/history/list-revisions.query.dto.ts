import { Transform } from 'class-transformer';
import { MayBeOmitted } from '../validation/may-be-omitted';
import { Rule } from '../validation/rule';

/** Revisions in a page of `GET /projects/<p>/revisions` when the query names no `limit`. */
export const REVISIONS_PAGE_SIZE_DEFAULT = 50;
export const REVISIONS_PAGE_SIZE_MIN = 1;
/** The most revisions one page holds. */
export const REVISIONS_PAGE_SIZE_MAX = 100;

export const REVISIONS_LIMIT_DETAIL = `must be an integer from ${REVISIONS_PAGE_SIZE_MIN} to ${REVISIONS_PAGE_SIZE_MAX}`;
// A project's revision is a 32-bit integer: no project reaches past this.
const REVISION_MAX = 2_147_483_647;
export const REVISION_NUMBER_DETAIL = `must be a revision number (an integer from 1 to ${REVISION_MAX})`;

// A query parameter is always a string: its decimal form, without sign, spaces or leading zeros,
// becomes a number; anything else stays as it came and fails the rule.
const DECIMAL = /^[1-9]\d{0,9}$/;

const toNumber = ({ value }: { value: unknown }) =>
  typeof value === 'string' && DECIMAL.test(value) ? Number(value) : value;

/** A revision number: 1 to the largest a project can reach. */
export function isRevisionNumber(value: unknown): value is number {
  return (
    typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= REVISION_MAX
  );
}

function isRevisionsPageSize(value: unknown): value is number {
  return (
    typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= REVISIONS_PAGE_SIZE_MIN &&
    value <= REVISIONS_PAGE_SIZE_MAX
  );
}

/**
 * Query of `GET /projects/<p>/revisions`: newest first, `limit` at most, older than `before`.
 * Both may be left out: the newest 50. Any other parameter is refused (400 at its name).
 */
export class ListRevisionsQueryDto {
  /**
   * How many revisions a page holds at most: 1 to 100, 50 when left out.
   * @example 50
   */
  @MayBeOmitted()
  @Transform(toNumber, { toClassOnly: true })
  @Rule('isRevisionsPageSize', isRevisionsPageSize, REVISIONS_LIMIT_DETAIL, {
    type: 'integer',
    minimum: REVISIONS_PAGE_SIZE_MIN,
    maximum: REVISIONS_PAGE_SIZE_MAX,
  })
  limit?: number;

  /**
   * Only revisions older than this one: the last `revision` of the previous page. Left out:
   * from the newest.
   * @example 42
   */
  @MayBeOmitted()
  @Transform(toNumber, { toClassOnly: true })
  @Rule('isRevisionNumber', isRevisionNumber, REVISION_NUMBER_DETAIL, {
    type: 'integer',
    minimum: 1,
    maximum: REVISION_MAX,
  })
  before?: number;
}
