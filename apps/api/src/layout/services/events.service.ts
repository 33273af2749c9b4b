import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  EVENT_STREAMS_PER_ACCOUNT_MAX,
  EVENT_TICKET_TTL_SECONDS,
  type EventTicketResponse,
} from '@layout/contracts';
import { AuthenticationRequiredError } from '../../common/errors';
import { TooManyStreamsError } from '../errors';
import { type EventSink } from '../../common/http/event-stream-response';
import { Representation } from '../../common/http/representation';
import { SerializedJson } from '../../common/json/serialized-json';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { Database } from '../../database/database';
import { ChangeFeed } from '../events/change-feed';
import { EventStream } from '../events/event-stream';
import { retryField } from '../events/sse';
import { type ProjectScope } from '../layout.scopes';
import { EventsRepository, type StreamSession } from '../repositories/events.repository';
import { notFound } from './not-found';

/** Who asks for a project's stream: an account with its bearer token, or a ticket's holder. */
export interface StreamRequest {
  readonly projectId: string;
  readonly session?: StreamSession;
  /** As the query gave it: anything but a valid ticket of this project answers 401. */
  readonly ticket?: unknown;
  /** The last revision the client received (`Last-Event-ID`), as it came. */
  readonly lastEventId?: string;
  /** A HEAD: the stream's headers alone, and its ticket left for the GET that follows. */
  readonly headersOnly: boolean;
}

/** A stream that may start: its account's slot is taken; `start` feeds it to `sink`. */
export interface OpenedStream {
  start(sink: EventSink): void;
}

/** How long a browser waits before reconnecting a stream that ended. */
const RECONNECT_MS = 1000;
/** Before revision 1: a stream that starts here owes revision 0, which no project has. */
const BEFORE_ANY_REVISION = -1;
/** A Last-Event-ID this service could have sent: a revision. */
const EVENT_ID = /^(?:0|[1-9]\d{0,9})$/;

/**
 * A project's live changes: the stream of its revisions as they commit on any instance (fed by
 * ChangeFeed from the project's history), and the tickets that let a browser's EventSource open
 * one. An account has at most 10 streams open across instances; each holds no database
 * connection, only its place in its project's feed.
 */
@Injectable()
export class EventsService {
  private readonly maxUnsentBytes: number;

  constructor(
    private readonly db: Database,
    private readonly events: EventsRepository,
    private readonly feed: ChangeFeed,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.maxUnsentBytes = config.events.maxUnsentBytes;
  }

  /**
   * Opens the stream: the caller must own the project (404), a ticket must be one of this
   * project's, unused and unexpired (401), and the account must have a stream to spare (429).
   * Without `lastEventId` it starts at the current revision; with one, right after it.
   */
  async open(request: StreamRequest): Promise<OpenedStream> {
    const session = request.session ?? (await this.redeem(request));
    const { accountId } = session;
    const scope = { accountId, projectId: request.projectId };
    const current = (await this.events.currentRevision(this.db, scope)) ?? notFound('Project');
    const streamId = randomUUID();
    const counted = await this.db.transaction((round) => {
      const opened = this.events.openStream(round, {
        ...session,
        projectId: request.projectId,
        streamId,
        leaseMs: this.feed.leaseMs,
        max: EVENT_STREAMS_PER_ACCOUNT_MAX,
      });
      return round.finish(() => opened.get());
    });
    // Revoked, or expired, since the request was authenticated (or the ticket issued).
    if (counted === 'token-gone') tokenGone();
    if (counted === 'no-project') notFound('Project');
    if (counted === 'full') throw new TooManyStreamsError(EVENT_STREAMS_PER_ACCOUNT_MAX);
    const from = startingPoint(request.lastEventId, current);
    return {
      start: (sink) => {
        sink.write(retryField(RECONNECT_MS));
        const stream = new EventStream(
          { streamId, ...session, projectId: request.projectId },
          from,
          sink,
          this.maxUnsentBytes,
        );
        this.feed.add(stream);
      },
    };
  }

  /**
   * A single-use ticket for the project's stream, valid 60 s, tied to the caller's token: the
   * stream it opens is that token's, and ends when the token is revoked.
   */
  async issueTicket(
    scope: ProjectScope & { tokenHash: string },
  ): Promise<Representation<EventTicketResponse>> {
    const ticket = randomBytes(32).toString('base64url');
    const issued = await this.events.issueTicket(
      this.db,
      scope,
      digestOf(ticket),
      EVENT_TICKET_TTL_SECONDS,
    );
    // Revoked, or expired, since the request was authenticated.
    if (issued === 'token-gone') tokenGone();
    if (issued === 'no-project') notFound('Project');
    const body: EventTicketResponse = { ticket, expiresIn: EVENT_TICKET_TTL_SECONDS };
    return Representation.of(new SerializedJson(JSON.stringify(body)), {});
  }

  private async redeem(request: StreamRequest): Promise<StreamSession> {
    const { projectId, ticket, headersOnly } = request;
    const session =
      typeof ticket !== 'string'
        ? undefined
        : await (headersOnly
            ? this.events.ticketHolder(this.db, projectId, digestOf(ticket))
            : this.events.redeemTicket(this.db, projectId, digestOf(ticket)));
    if (session === undefined) {
      throw new AuthenticationRequiredError(
        'The ticket is unknown, used, expired, for another project, or its token was revoked',
        'invalid_token',
      );
    }
    return session;
  }
}

/** The request's token was good when it came, and is no longer. */
function tokenGone(): never {
  throw new AuthenticationRequiredError('The token was revoked or has expired');
}

/** Only a ticket's SHA-256 is stored: a leaked table opens no stream. */
function digestOf(ticket: string): string {
  return createHash('sha256').update(ticket).digest('hex');
}

/**
 * Where a stream starts: right after the client's last event, or at the current revision (also
 * for a blank id, which the SSE spec reads as none). An id that cannot be one of this project's
 * revisions (not a number, or past the current one) starts it before the first revision, which
 * the stream answers with a reset.
 */
function startingPoint(lastEventId: string | undefined, current: number): number {
  const id = lastEventId?.trim() ?? '';
  if (id === '') return current;
  const revision = EVENT_ID.test(id) ? Number(id) : NaN;
  return revision <= current ? revision : BEFORE_ANY_REVISION;
}
