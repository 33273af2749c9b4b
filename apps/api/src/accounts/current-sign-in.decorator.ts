import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { type FastifyRequest } from 'fastify';
import { type SignedInAccount } from './signed-in-account';

/** The caller with the token of this request (what the accounts' own operations need of it). */
export const CurrentSignIn = createParamDecorator(
  (_data: unknown, context: ExecutionContext): SignedInAccount => {
    const request = context
      .switchToHttp()
      .getRequest<FastifyRequest & { user?: SignedInAccount }>();
    if (!request.user?.token) throw new Error('CurrentSignIn used on a route without a token');
    return request.user;
  },
);
