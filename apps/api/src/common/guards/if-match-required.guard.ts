import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { type FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { PreconditionRequiredError } from '../errors';

/**
 * With REQUIRE_IF_MATCH on, a change without `If-Match` is refused (428) before any work:
 * clients must say which version they are changing, so that no write silently overwrites
 * another.
 */
@Injectable()
export class IfMatchRequiredGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    if (!this.config.requireIfMatch) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    if (request.headers['if-match'] === undefined) throw new PreconditionRequiredError();
    return true;
  }
}
