import { Injectable } from '@nestjs/common';
import { assetIdOf } from '@layout/contracts';
import { RequestValidationError } from '../common/errors';
import { Database } from '../database/database';
import { assetPathsIn } from './asset-paths';
import { AssetsRepository } from './assets.repository';

export const NOT_NAMEABLE_DETAIL =
  'names an asset that you did not upload and that no project you are a member of names';

/**
 * Which uploaded assets a writer may name in a content or a style: one it uploaded, or one that
 * a project it is a member of already names (so that a team reuses each other's images, and
 * copies them into its own projects). Any other asset path is refused, 400, at its member.
 */
@Injectable()
export class AssetNames {
  constructor(
    private readonly db: Database,
    private readonly assets: AssetsRepository,
  ) {}

  /** Throws unless the account may name every asset path in `body` (one statement, if any). */
  async assertNameable(accountId: string, body: unknown): Promise<void> {
    const named = assetPathsIn(body);
    if (named.length === 0) return;
    const ids = [...new Set(named.map((asset) => assetIdOf(asset.path)))];
    const nameable = await this.assets.nameable(this.db, accountId, ids);
    const refused = named.filter((asset) => !nameable.has(assetIdOf(asset.path)));
    if (refused.length > 0) {
      throw new RequestValidationError(
        refused.map((asset) => ({ pointer: asset.pointer, detail: NOT_NAMEABLE_DETAIL })),
      );
    }
  }
}
