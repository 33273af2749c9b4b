import { Transform } from 'class-transformer';
import {
  isPageSize,
  PAGE_SIZE_DETAIL,
  PROJECTS_PAGE_SIZE_MAX,
  PROJECTS_PAGE_SIZE_MIN,
} from '../project/list-projects.query.dto';
import { MayBeOmitted } from '../validation/may-be-omitted';
import { Rule } from '../validation/rule';

const DECIMAL = /^(?:0|[1-9]\d{0,5})$/;
const ASSET_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const ASSET_AFTER_DETAIL = 'must be the id of one of your assets';

/** Query of `GET /assets`: newest first, every asset or a page of `limit` after `after`. */
export class ListAssetsQueryDto {
  /**
   * How many assets a page holds at most: 1 to 100. Left out: every asset, in one answer.
   * @example 50
   */
  @MayBeOmitted()
  @Transform(
    ({ value }: { value: unknown }) =>
      typeof value === 'string' && DECIMAL.test(value) ? Number(value) : value,
    { toClassOnly: true },
  )
  @Rule('isPageSize', isPageSize, PAGE_SIZE_DETAIL, {
    type: 'integer',
    minimum: PROJECTS_PAGE_SIZE_MIN,
    maximum: PROJECTS_PAGE_SIZE_MAX,
  })
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
