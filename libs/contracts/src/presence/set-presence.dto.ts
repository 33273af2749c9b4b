import { MayBeOmitted } from '../validation/may-be-omitted';
import { IsOneOf } from '../validation/is-one-of';
import { Rule } from '../validation/rule';

/** What a present account is doing: reading the project, or changing it (editors only). */
export const PRESENCE_STATES = ['viewing', 'editing'] as const;

export type PresenceState = (typeof PRESENCE_STATES)[number];

/** The longest path of a project: `/projects/<id>` and four levels of `/<list>/<id>` beneath. */
export const PRESENCE_LOCATION_MAX_LENGTH = 400;

const ID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** The path of a project or of a node in it, as the service gives them out. */
export const NODE_PATH = new RegExp(
  `^/projects/${ID}(?:/blocks/${ID}(?:/rows/${ID}(?:/columns/${ID}(?:/contents/${ID})?)?)?)?$`,
);

export const LOCATION_DETAIL =
  'must be the path of this project or of a block, row, column or content in it, or null';

/** A project's or a node's path, or null. */
export function isPresenceLocation(value: unknown): value is string | null {
  return (
    value === null ||
    (typeof value === 'string' &&
      value.length <= PRESENCE_LOCATION_MAX_LENGTH &&
      NODE_PATH.test(value))
  );
}

/**
 * Body of `PUT /projects/<p>/presence`: where the caller is in the project, and what it does
 * there. Members left out keep their value; until set, a present account is `viewing` at `null`.
 */
export class SetPresenceDto {
  /**
   * The path of the project or of a node in it (a block, a row, a column, a content), or `null`.
   * It is cleared when that node is deleted or moved away.
   * @example "/projects/0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a87/blocks/0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a81"
   */
  @MayBeOmitted()
  @Rule('isPresenceLocation', isPresenceLocation, LOCATION_DETAIL, {
    type: 'string',
    nullable: true,
    maxLength: PRESENCE_LOCATION_MAX_LENGTH,
    pattern: NODE_PATH.source,
  })
  location?: string | null;

  /**
   * `viewing`, or `editing` (an editor or the owner only: a viewer gets 403).
   * @example "editing"
   */
  @MayBeOmitted()
  @IsOneOf(PRESENCE_STATES)
  state?: PresenceState;
}
