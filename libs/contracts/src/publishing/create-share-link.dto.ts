import { isRevisionNumber, REVISION_NUMBER_DETAIL } from '../history/list-revisions.query.dto';
import { BodyMayBeOmitted } from '../validation/body-may-be-omitted';
import { MayBeOmitted } from '../validation/may-be-omitted';
import { Rule } from '../validation/rule';

/** At most this many links of a project work at once (neither revoked nor expired). */
export const SHARE_LINKS_PER_PROJECT_MAX = 100;

// RFC 3339: a full date, `T`, a full time, and an offset (`Z` or ±hh:mm).
const RFC_3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[Zz]|[+-]\d{2}:\d{2})$/;

export const EXPIRES_AT_DETAIL = 'must be an RFC 3339 date-time with an offset, in the future';

/** An RFC 3339 time later than now. */
export function isFutureTime(value: unknown): value is string {
  if (typeof value !== 'string' || !RFC_3339.test(value)) return false;
  const time = Date.parse(value);
  return Number.isFinite(time) && time > Date.now();
}

/** `POST /projects/<p>/links`: a link to one revision of the project, which it keeps showing. */
@BodyMayBeOmitted()
export class CreateShareLinkDto {
  /**
   * The revision the link shows, one of the project's kept revisions; left out: the current one.
   * @example 7
   */
  @MayBeOmitted()
  @Rule('isRevisionNumber', isRevisionNumber, REVISION_NUMBER_DETAIL, {
    type: 'integer',
    minimum: 1,
  })
  revision?: number;

  /**
   * When the link stops working (RFC 3339, in the future); left out: never.
   * @example "2026-12-31T23:59:59Z"
   */
  @MayBeOmitted()
  @Rule('isFutureTime', isFutureTime, EXPIRES_AT_DETAIL, { type: 'string', format: 'date-time' })
  expiresAt?: string;
}
