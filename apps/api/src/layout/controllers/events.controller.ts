import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { EventTicketResponse, IssueEventTicketDto, StreamEventsQueryDto } from '@layout/contracts';
import { type BearerSession } from '../../common/auth/authenticated-account';
import { CurrentSession } from '../../common/decorators/current-account.decorator';
import { AcceptsTicket, OptionalAccount } from '../../common/decorators/optional-account.decorator';
import { openEventStream } from '../../common/http/event-stream-response';
import { NoStore } from '../../common/http/cache-control';
import { type Representation } from '../../common/http/representation';
import {
  ApiCreatedJsonResponse,
  ApiOptionalBody,
  ApiProblems,
  ApiProtected,
  BODY_PROBLEMS,
} from '../../openapi/decorators';
import { ProjectPath } from '../params/layout-paths.params';
import { EventsService } from '../services/events.service';

const STREAM_EXAMPLE =
  'retry: 1000\n\n' +
  'event: presence\ndata: {"present":[{"account":{"_id":"…","username":"ada"},' +
  '"location":"/projects/…/blocks/…","state":"editing","since":"2026-11-22T10:20:00.000Z"}]}\n\n' +
  'id: 42\nevent: change\ndata: {"revision":42,"operation":"content.update",' +
  '"path":"/projects/…/contents/…","etag":"\\"r42\\"","author":{"_id":"…","username":"ada"}}\n\n' +
  ': keep-alive\n\n';

@ApiTags('history')
@ApiProtected()
@Controller('projects/:projectId/events')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get()
  @AcceptsTicket()
  @NoStore()
  @ApiOperation({
    summary: "Stream a project's changes (Server-Sent Events)",
    description:
      "A `text/event-stream` of the project's committed revisions, in order, as they commit on " +
      'any instance: `id: <revision>`, `event: change`, `data: {"revision", "operation", ' +
      '"path", "etag", "author"}` (`author`: `{"_id", "username"}`, `null` once deleted). Its ' +
      'first event, and one whenever who is present changes on any instance, is `event: ' +
      'presence` without `id:`, `data` as `GET /projects/<p>/presence` answers it. A client that reconnects with `Last-Event-ID: <n>` (or ' +
      '`?lastEventId=<n>`) first receives every kept revision after `n`, then the live ones; ' +
      'if some are no longer kept it receives one `event: reset` (with `data: {"revision", ' +
      '"etag"}`): reload the project. No revision is skipped, repeated or reordered. A comment ' +
      'line comes at least every 15 s. An account has at most 10 streams open (429 beyond). ' +
      "Authenticate with the bearer token, or, from a browser's `EventSource`, with a ticket " +
      'from `POST /projects/<p>/events/tickets` as `?ticket=`. A client that does not read is ' +
      'cut off; the stream ends when the service shuts down (reconnect), when the token that ' +
      "opened it, or asked for its ticket, is revoked, and when its account's membership of the " +
      'project ends. A ticket that is unknown, malformed, used, expired or of another project ' +
      'answers 401.',
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'The last revision received: the stream starts right after it.',
    schema: { type: 'string', example: '42' },
  })
  @ApiProduces('text/event-stream')
  @ApiResponse({
    status: 200,
    description: 'The stream, open until the client or the service ends it.',
    content: { 'text/event-stream': { schema: { type: 'string' }, example: STREAM_EXAMPLE } },
  })
  @ApiProblems('validation', 'notFound', 'tooManyStreams')
  async stream(
    @OptionalAccount() account: BearerSession | undefined,
    @Param() path: ProjectPath,
    @Query() query: StreamEventsQueryDto,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const opened = await this.events.open({
      projectId: path.projectId,
      session: account && { accountId: account.id, tokenHash: account.token.hash },
      ticket: account === undefined ? query.ticket : undefined,
      // A blank header is the SSE spec's unset id (a browser sends none): the query's id counts.
      lastEventId: lastEventId?.trim() ? lastEventId : query.lastEventId,
      headersOnly: reply.request.method === 'HEAD',
    });
    opened.start(openEventStream(reply));
  }

  @Post('tickets')
  @HttpCode(201)
  @NoStore()
  @ApiOperation({
    summary: "A ticket for the project's event stream",
    description:
      "A browser's `EventSource` cannot send the bearer token: it opens " +
      '`GET /projects/<p>/events?ticket=<ticket>` instead. A ticket is valid once, for 60 s, ' +
      "for this project's stream only.",
  })
  @ApiCreatedJsonResponse(
    EventTicketResponse,
    { ticket: 'q3Jm0n2qkVQe3XbZ0YcT1m3l9mQ6a4b7c8d9e0f1g2h', expiresIn: 60 },
    'The ticket.',
    { location: false },
  )
  @ApiOptionalBody(IssueEventTicketDto)
  @ApiProblems(...BODY_PROBLEMS, 'notFound')
  issueTicket(
    @CurrentSession() session: BearerSession,
    @Param() path: ProjectPath,
    // Validated (none, or `{}`), then nothing to read: the path and the token say it all.
    @Body() _body: IssueEventTicketDto,
  ): Promise<Representation<EventTicketResponse>> {
    return this.events.issueTicket({
      accountId: session.id,
      tokenHash: session.token.hash,
      ...path,
    });
  }
}
