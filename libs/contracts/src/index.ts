// The public surface of @proposal-layout/contracts: request DTOs with their rules, response shapes,
// problem types and the validation entry points shared by the server and browser apps.

export * from './limits';

export * from './validation/validation-options';
export * from './validation/field-error';
export * from './validation/field-errors';
export * from './validation/field-error-summary';
export * from './validation/validate-body';
export * from './validation/body-may-be-omitted';
export * from './validation/body-shape-problems';
export * from './validation/reserved-keys';
export * from './validation/without-reserved-keys';
export * from './validation/json-pointer';
export * from './validation/safe-text';
export * from './validation/schema-hints';
export { isObjectValue, isPlainObject } from './validation/plain-object';
export { isColumnSize, COLUMN_SIZE_DETAIL } from './validation/is-column-size';
export { toColumnSize, COLUMN_SIZE_SCHEMA } from './validation/to-column-size';
export {
  isHttpUrl,
  isNormalisedHttpUrl,
  normaliseHttpUrl,
  HTTP_URL_SCHEMA,
} from './validation/is-http-url';
export {
  ASSET_PATH_PREFIX,
  ASSET_PATH_SCHEMA,
  assetIdOf,
  isAssetPath,
} from './validation/is-asset-path';
export { isCssLength, CSS_LENGTH_UNITS } from './validation/css-length';
export { isBackgroundSize } from './validation/is-background-size';
export { isBackgroundPosition } from './validation/is-background-position';
export { isCssColor } from './validation/is-css-color';
export { CSS_NAMED_COLORS } from './validation/css-named-colors';
export { isImageDimension } from './validation/is-image-dimension';
export { isPosition } from './validation/is-position';
export { findQuoteItemProblems, QUOTE_AMOUNT_KEYS } from './validation/quote-item-problems';
export type { QuoteItemProblem } from './validation/quote-item-problems';

export * from './account/username';
export * from './account/sign-up.dto';
export * from './account/token-request.dto';
export * from './account/change-password.dto';
export * from './account/account.response';
export * from './account/token.response';
export * from './account/me.response';

export * from './tree/read-member';
export * from './tree/content-tree.dto';
export * from './tree/column-tree.dto';
export * from './tree/row-tree.dto';
export * from './tree/block-tree.dto';

export * from './project/create-project.dto';
export * from './project/update-project.dto';
export * from './project/project-summary.response';
export * from './project/project.response';
export * from './project/list-projects.query.dto';
export * from './project/retrieve-project.query.dto';
export * from './project/duplicate-project.dto';

export * from './block/block-style';
export * from './block/block-style.dto';
export * from './block/create-block.dto';
export * from './block/update-block.dto';
export * from './block/move-block.dto';
export * from './block/duplicate-block.dto';
export * from './block/block-style.response';
export * from './block/block.response';

export * from './row/create-row.dto';
export * from './row/update-row.dto';
export * from './row/move-row.dto';
export * from './row/duplicate-row.dto';
export * from './row/row.response';

export * from './batch/batch.dto';
export * from './batch/batch.response';

export * from './column/create-column.dto';
export * from './column/update-column.dto';
export * from './column/move-column.dto';
export * from './column/duplicate-column.dto';
export * from './column/column.response';

export * from './content/content-type';
export * from './content/content-style';
export * from './content/video-provider';
export * from './content/content-style.dto';
export * from './content/content-body.dto';
export * from './content/create-content.dto';
export * from './content/update-content.dto';
export * from './content/move-content.dto';
export * from './content/duplicate-content.dto';
export * from './content/column-content.dto';
export * from './content/content-style.response';
export * from './content/content.response';
export * from './content/data/content-data';
export * from './content/data/empty-data.dto';
export * from './content/data/text-data.dto';
export * from './content/data/image-data.dto';
export * from './content/data/video-data.dto';
export * from './content/data/quote-data.dto';
export * from './content/data/quote-options.dto';
export * from './content/data/quote-content.dto';
export * from './content/data/quote-field.dto';
export * from './content/data/quote-item';

export * from './problem/problem-types';
export * from './problem/field-error.response';
export * from './problem/problem-details.response';

export * from './history/revision-operation';
export * from './history/revision.response';
export * from './history/list-revisions.query.dto';
export * from './history/change-event';
export * from './history/event-ticket.response';
export * from './history/events.query.dto';
export * from './history/restore-revision.dto';
export * from './history/issue-event-ticket.dto';

export * from './member/project-role';
export * from './member/account-ref.response';
export * from './member/member.response';
export * from './member/add-member.dto';
export * from './member/change-member-role.dto';

export * from './presence/set-presence.dto';
export * from './presence/presence.response';

export * from './publishing/create-share-link.dto';
export * from './publishing/share-link.response';

export * from './asset/asset-limits';
export * from './asset/asset.response';
export * from './asset/list-assets.query.dto';
