import { type ExecutionContext, Injectable } from '@nestjs/common';
import { type FastifyRequest } from 'fastify';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { AuthenticationRequiredError } from '../errors';
import { ACCEPTS_TICKET } from '../decorators/optional-account.decorator';
import { IS_PUBLIC } from '../decorators/public.decorator';

/**
 * Applied globally: every route needs `Authorization: Bearer <token>` unless marked @Public(),
 * or it takes a ticket instead (@AcceptsTicket) and the request has one.
 * Passport's failures become the domain error the problem filter turns into a 401 with an
 * RFC 6750 challenge.
 */
@Injectable()
export class BearerAuthGuard extends AuthGuard('bearer') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override canActivate(context: ExecutionContext) {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic || this.comesWithTicket(context)) return true;
    withOneSpaceAfterScheme(context.switchToHttp().getRequest<FastifyRequest>());
    return super.canActivate(context);
  }

  /** A route that takes a ticket (@AcceptsTicket), called with one and without a token. */
  private comesWithTicket(context: ExecutionContext): boolean {
    const accepts = this.reflector.getAllAndOverride<boolean>(ACCEPTS_TICKET, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!accepts) return false;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const query = request.query as Record<string, unknown> | undefined;
    return request.headers.authorization === undefined && query?.ticket !== undefined;
  }

  override handleRequest<TAccount>(
    error: unknown,
    account: TAccount | false,
    info: unknown,
  ): TAccount {
    if (error instanceof Error) throw error;
    if (error) throw new Error(`Bearer authentication failed: ${JSON.stringify(error)}`);
    if (account) return account;
    // passport-http-bearer passes its challenge string: it names an error only when a token was sent.
    const challenge = typeof info === 'string' ? info : '';
    if (challenge.includes('invalid_token')) {
      throw new AuthenticationRequiredError(
        'The bearer token is unknown or expired',
        'invalid_token',
      );
    }
    if (challenge.includes('invalid_request')) {
      throw new AuthenticationRequiredError(
        'The Authorization header is malformed',
        'invalid_request',
      );
    }
    throw new AuthenticationRequiredError('Send an Authorization: Bearer <token> header');
  }
}

/**
 * RFC 6750 (§2.1) and RFC 9110 (§11.4) let any number of spaces separate the scheme from the
 * token, while passport-http-bearer splits the header on one: `Bearer  <token>` would read as
 * malformed. Nothing else of the header changes.
 */
function withOneSpaceAfterScheme(request: FastifyRequest): void {
  const header = request.headers.authorization;
  if (header?.includes('  ')) request.headers.authorization = header.replace(/^(\S+) +/, '$1 ');
}
