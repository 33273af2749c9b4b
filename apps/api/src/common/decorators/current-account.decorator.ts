import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { type FastifyRequest } from 'fastify';
import { type AuthenticatedAccount, type BearerSession } from '../auth/authenticated-account';

/** The account that the bearer token of this request belongs to. */
export const CurrentAccount = createParamDecorator(
  (_data: unknown, context: ExecutionContext): AuthenticatedAccount => {
    const request = context
      .switchToHttp()
      .getRequest<FastifyRequest & { user?: AuthenticatedAccount }>();
    if (!request.user) throw new Error('CurrentAccount used on a route without authentication');
    return request.user;
  },
);

/** The caller with the bearer token of this request (see BearerSession). */
export const CurrentSession = createParamDecorator(
  (_data: unknown, context: ExecutionContext): BearerSession => {
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: BearerSession }>();
    if (!request.user?.token) throw new Error('CurrentSession used on a route without a token');
    return request.user;
  },
);
