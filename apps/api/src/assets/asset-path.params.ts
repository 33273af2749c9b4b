import { Matches } from 'class-validator';
import { RESOURCE_ID } from '../common/pipes/resource-id';

/** An asset (a malformed id is a 404, as for every id). */
export class AssetPath {
  /** Id of the asset. */
  @Matches(RESOURCE_ID)
  assetId!: string;
}
