import { IsPageSize } from '../project/list-projects.query.dto';
import { MayBeOmitted } from '../validation/may-be-omitted';
import { Rule } from '../validation/rule';

const ASSET_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const ASSET_AFTER_DETAIL = 'must be the id of one of your assets';

/** Query of `GET /assets`: newest first, every asset or a page of `limit` after `after`. */
export class ListAssetsQueryDto {
  /**
   * How many assets a page holds at most: 1 to 100. Left out: every asset, in one answer.
   * @example 50
   */
  @IsPageSize()
  limit?: number;

  /**
   * Where the page starts: after the asset with this id (the previous page's `Link` names it).
   * Left out: the newest.
   */
  @MayBeOmitted()
  @Rule(
    'isAssetId',
    (value) => typeof value === 'string' && ASSET_ID.test(value),
    ASSET_AFTER_DETAIL,
    {
      type: 'string',
      pattern: ASSET_ID.source,
    },
  )
  after?: string;
}
