import { type CanActivate, type ExecutionContext, Injectable, UseGuards } from '@nestjs/common';
import { type FastifyRequest } from 'fastify';
import { type AuthenticatedAccount } from '../common/auth/authenticated-account';
import { AssetNames } from './asset-names';

/**
 * Runs the write's asset check (AssetNames) before its handler, after authentication: a body
 * that names an asset its writer may not name answers 400 before anything is written.
 */
@Injectable()
export class AssetNamesGuard implements CanActivate {
  constructor(private readonly names: AssetNames) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context
      .switchToHttp()
      .getRequest<FastifyRequest & { user?: AuthenticatedAccount }>();
    // Without an account, authentication has refused the request already.
    if (request.user !== undefined) await this.names.assertNameable(request.user.id, request.body);
    return true;
  }
}

/** A write whose body may name uploaded assets (an image's `url`, a `backgroundImage`). */
export const ChecksAssetNames = (): MethodDecorator => UseGuards(AssetNamesGuard);
