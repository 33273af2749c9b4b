import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { type FastifyRequest } from 'fastify';
import { type Observable } from 'rxjs';
import { type AuthenticatedAccount } from '../common/auth/authenticated-account';
import { LoginAttemptLimiter } from './login-attempt-limiter';
import { usernameKey } from './username';

/**
 * Before an operation that checks a password (the token, a change of password): loads the
 * shared failure counts of the username at the client's address, of the address and of the
 * username (LoginAttemptLimiter.refresh), so that the service's synchronous check sees the
 * failures of every instance. The username is the body's (a sign-in) or the caller's (signed in
 * already). On those routes only (an interceptor on every route would put each request through
 * an RxJS pipeline for nothing); does nothing without Redis.
 */
@Injectable()
export class LoginAttemptsRefresh implements NestInterceptor {
  constructor(private readonly limiter: LoginAttemptLimiter) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context
      .switchToHttp()
      .getRequest<FastifyRequest & { user?: AuthenticatedAccount }>();
    const named = (request.body as { username?: unknown } | undefined)?.username;
    const username = request.user?.username ?? named;
    if (typeof username === 'string') {
      await this.limiter.refresh({ usernameKey: usernameKey(username), address: request.ip });
    }
    return next.handle();
  }
}
