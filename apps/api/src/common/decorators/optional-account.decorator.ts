import { createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { type FastifyRequest } from 'fastify';
import { type BearerSession } from '../auth/authenticated-account';

export const ACCEPTS_TICKET = 'layout:acceptsTicket';

/**
 * The route takes a single-use `?ticket=` instead of a bearer token (for a browser's
 * EventSource, which cannot send headers): a request with a ticket and without an
 * `Authorization` header passes the bearer guard, and the route's service redeems the ticket.
 */
export const AcceptsTicket = () => SetMetadata(ACCEPTS_TICKET, true);

/** The caller with its bearer token, or undefined on a request that came with a ticket. */
export const OptionalAccount = createParamDecorator(
  (_data: unknown, context: ExecutionContext): BearerSession | undefined =>
    context.switchToHttp().getRequest<FastifyRequest & { user?: BearerSession }>().user,
);
