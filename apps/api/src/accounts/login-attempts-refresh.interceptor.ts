import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { type FastifyRequest } from 'fastify';
import { type Observable } from 'rxjs';
import { LoginAttemptLimiter } from './login-attempt-limiter';
import { usernameKey } from './username';

/**
 * Before POST /accounts/auth/token: loads the shared failure counts of the username in the body
 * at the client's address, and of the address (LoginAttemptLimiter.refresh), so that the
 * service's synchronous check sees the failures of every instance. On that route only (an interceptor on every route would put each request
 * through an RxJS pipeline for nothing); does nothing without Redis.
 */
@Injectable()
export class LoginAttemptsRefresh implements NestInterceptor {
  constructor(private readonly limiter: LoginAttemptLimiter) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const username = (request.body as { username?: unknown } | undefined)?.username;
    if (typeof username === 'string') {
      await this.limiter.refresh({ usernameKey: usernameKey(username), address: request.ip });
    }
    return next.handle();
  }
}
