import { Transform } from 'class-transformer';
import { MayBeOmitted } from '../validation/may-be-omitted';
import { Rule } from '../validation/rule';

export const PROJECTS_PAGE_SIZE_MIN = 1;
/** The most projects one page of `GET /projects` holds. */
export const PROJECTS_PAGE_SIZE_MAX = 100;
/** Cursors are opaque; one longer than this was never given out, so it is refused unread. */
export const PAGE_CURSOR_MAX_LENGTH = 512;

export const PAGE_SIZE_DETAIL = `must be an integer from ${PROJECTS_PAGE_SIZE_MIN} to ${PROJECTS_PAGE_SIZE_MAX}`;
export const PAGE_CURSOR_DETAIL = "must be the cursor of a previous page's Link header";

// A query parameter is always a string: its decimal form, without sign, spaces or leading zeros,
// becomes a number; anything else stays as it came and fails the rule.
const DECIMAL = /^(?:0|[1-9]\d{0,5})$/;
const BASE64URL = new RegExp(`^[A-Za-z0-9_-]{1,${PAGE_CURSOR_MAX_LENGTH}}$`);

export function isPageSize(value: unknown): value is number {
  return (
    typeof value === 'number' &&
    Number.isInteger(value) &&
    value >= PROJECTS_PAGE_SIZE_MIN &&
    value <= PROJECTS_PAGE_SIZE_MAX
  );
}

/**
 * A page's `limit` query parameter (optional): its decimal form becomes a number, which must be
 * 1 to 100. `GET /projects` and `GET /assets` take it.
 */
export function IsPageSize(): PropertyDecorator {
  const optional = MayBeOmitted();
  const toNumber = Transform(
    ({ value }: { value: unknown }) =>
      typeof value === 'string' && DECIMAL.test(value) ? Number(value) : value,
    { toClassOnly: true },
  );
  const rule = Rule('isPageSize', isPageSize, PAGE_SIZE_DETAIL, {
    type: 'integer',
    minimum: PROJECTS_PAGE_SIZE_MIN,
    maximum: PROJECTS_PAGE_SIZE_MAX,
  });
  return (target, member) => {
    optional(target, member);
    toNumber(target, member);
    rule(target, member);
  };
}

/**
 * Query of `GET /projects`. Both parameters may be left out: without `limit`, the answer is
 * every project of the account (the contract's list); with it, a page. Any other parameter is
 * refused (400 at its name).
 */
export class ListProjectsQueryDto {
  /**
   * How many projects a page holds at most: 1 to 100. Left out: every project, in one answer.
   * @example 50
   */
  @IsPageSize()
  limit?: number;

  /**
   * Where the page starts: the `cursor` of the previous page's `Link: <…>; rel="next"`, as it
   * came (opaque). Left out: the first page.
   */
  @MayBeOmitted()
  @Rule(
    'isPageCursor',
    (value) => typeof value === 'string' && BASE64URL.test(value),
    PAGE_CURSOR_DETAIL,
    { type: 'string', pattern: BASE64URL.source, maxLength: PAGE_CURSOR_MAX_LENGTH },
  )
  cursor?: string;
}
