import { Allow } from 'class-validator';
import { MayBeOmitted } from '../validation/may-be-omitted';
import { Rule } from '../validation/rule';

const EVENT_ID = /^(?:0|[1-9]\d{0,9})$/;

export const EVENT_ID_DETAIL = 'must be the id of an event of this stream (a revision)';

/**
 * Query of `GET /projects/<p>/events`. `ticket` stands in for the bearer token (a browser's
 * EventSource cannot send headers); `lastEventId` for the `Last-Event-ID` header, for clients
 * that cannot set it either.
 */
export class StreamEventsQueryDto {
  /**
   * A single-use ticket for this project's stream (valid 60 s). Any other value, whatever its
   * shape (the parameter given twice included), is a ticket that does not exist: 401, as for a
   * used or expired one.
   */
  @MayBeOmitted()
  @Allow()
  ticket?: string;

  /** The last revision the client received: the stream starts right after it. */
  @MayBeOmitted()
  @Rule(
    'isEventId',
    (value) => typeof value === 'string' && EVENT_ID.test(value),
    EVENT_ID_DETAIL,
    { type: 'string', pattern: EVENT_ID.source },
  )
  lastEventId?: string;
}
