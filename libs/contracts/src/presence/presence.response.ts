import { DATE_TIME_SCHEMA, HintSchema } from '../validation/schema-hints';
import { AccountRefResponse } from '../member/account-ref.response';
import { PRESENCE_STATES, type PresenceState } from './set-presence.dto';

/** An account that has the project open: who, where, doing what, since when. */
export class PresentAccountResponse {
  /** The account. */
  account!: AccountRefResponse;

  /**
   * Where it says it is (`PUT …/presence`): the path of the project or of a node in it, or
   * `null` (not said, or its node was deleted or moved away).
   * @example "/projects/0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a87/blocks/0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a81"
   */
  @HintSchema({ type: 'string', nullable: true })
  location!: string | null;

  /**
   * `viewing` or `editing`.
   * @example "editing"
   */
  @HintSchema({ type: 'string', enum: PRESENCE_STATES })
  state!: PresenceState;

  /**
   * When it became present: when it opened its first stream of the project that is still open
   * (ISO 8601 date-time, UTC).
   * @example "2026-11-29T10:15:30.000Z"
   */
  @HintSchema(DATE_TIME_SCHEMA)
  since!: string;
}

/**
 * `GET /projects/<p>/presence`, and the `data` of every `event: presence` of the project's event
 * stream (its first event, then one whenever presence changes on any instance; no `id:`).
 */
export class PresenceResponse {
  /** Every present account once, the caller included, ordered by `since`. */
  present!: PresentAccountResponse[];
}

/** The `data` of an `event: presence`: the same as `GET /projects/<p>/presence` answers. */
export type PresenceEvent = PresenceResponse;
