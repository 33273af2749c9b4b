import { MayBeOmitted } from '../validation/may-be-omitted';
import { Rule } from '../validation/rule';

const TICKET = /^[A-Za-z0-9_-]{43}$/;
const EVENT_ID = /^(?:0|[1-9]\d{0,9})$/;

export const TICKET_DETAIL = 'must be a ticket from POST /projects/<p>/events/tickets';
export const EVENT_ID_DETAIL = 'must be the id of an event of this stream (a revision)';

/**
 * Query of `GET /projects/<p>/events`. `ticket` stands in for the bearer token (a browser's
 * EventSource cannot send headers); `lastEventId` for the `Last-Event-ID` header, for clients
 * that cannot set it either.
 */
export class StreamEventsQueryDto {
  /** A single-use ticket for this project's stream (valid 60 s). */
  @MayBeOmitted()
  @Rule(
    'isEventTicket',
    (value) => typeof value === 'string' && TICKET.test(value),
    TICKET_DETAIL,
    {
      type: 'string',
      pattern: TICKET.source,
    },
  )
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
