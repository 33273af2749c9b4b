import { Injectable } from '@nestjs/common';
import { assetIdOf } from '@layout/contracts';
import { RequestValidationError } from '../common/errors';
import { Database } from '../database/database';
import { type Statements, type Step } from '../database/unit-of-work';
import { assetPathsIn, type NamedAsset } from './asset-paths';
import { AssetsRepository } from './assets.repository';

export const NOT_NAMEABLE_DETAIL =
  'names an asset that you did not upload and that no project you are a member of names';

/**
 * The asset paths a write's body names, each checked nameable when the request came. Only the
 * write that names them can keep them: `AssetNames.held` sends that write with the assets held
 * until it commits.
 */
export class NamedAssets {
  static readonly none = new NamedAssets([]);

  private constructor(readonly assets: readonly NamedAsset[]) {}

  /** @internal Made by AssetNames.nameable alone. */
  static of(assets: readonly NamedAsset[]): NamedAssets {
    return assets.length === 0 ? NamedAssets.none : new NamedAssets(assets);
  }
}

/**
 * Which uploaded assets a writer may name in a content or a style: one it uploaded, or one that
 * a project it is a member of already names (so that a team reuses each other's images, and
 * copies them into its own projects). Any other asset path is refused, 400, at its member.
 *
 * Checked before the write, then held in it: an asset deleted in between would otherwise be
 * named by a content that nothing stops (its deletion found no use, the write had not
 * committed). A write holds the rows of the assets it names (`FOR KEY SHARE`) from its first
 * round to its commit; a deletion locks the row first and looks for uses in a statement of its
 * own (AssetsRepository.delete), so one of the two waits for the other and sees what it did.
 */
@Injectable()
export class AssetNames {
  constructor(
    private readonly db: Database,
    private readonly assets: AssetsRepository,
  ) {}

  /** The asset paths of `body`; throws unless the account may name every one (one statement). */
  async nameable(accountId: string, body: unknown): Promise<NamedAssets> {
    const named = assetPathsIn(body);
    if (named.length === 0) return NamedAssets.none;
    const nameable = await this.assets.nameable(this.db, accountId, idsOf(named));
    refuseUnless(named, nameable);
    return NamedAssets.of(named);
  }

  /**
   * `work`, its first round led by the hold of the assets `named` names: the write is refused
   * like a body naming an asset it may not (400) when one of them is gone by then.
   */
  held<R extends Statements, T>(
    named: NamedAssets,
    work: (round: R) => Step<T>,
  ): (round: R) => Step<T> {
    if (named.assets.length === 0) return work;
    return (round) => {
      const kept = this.assets.hold(round, idsOf(named.assets));
      return work(round).checkedFirst(() => refuseUnless(named.assets, kept.get()));
    };
  }
}

function idsOf(named: readonly NamedAsset[]): string[] {
  return [...new Set(named.map((asset) => assetIdOf(asset.path)))];
}

function refuseUnless(named: readonly NamedAsset[], nameable: ReadonlySet<string>): void {
  const refused = named.filter((asset) => !nameable.has(assetIdOf(asset.path)));
  if (refused.length > 0) {
    throw new RequestValidationError(
      refused.map((asset) => ({ pointer: asset.pointer, detail: NOT_NAMEABLE_DETAIL })),
    );
  }
}
