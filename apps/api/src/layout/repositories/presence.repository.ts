import { Injectable } from '@nestjs/common';
import { type PresenceState, type ProjectRole } from '@layout/contracts';
import { isMember } from '../../members/membership.sql';
import { type SqlSession } from '../../database/sql-session';
import { sqlStatement, type SqlStatement } from '../../database/sql-statement';
import { type ProjectScope } from '../layout.scopes';
import { iso } from './sql/documents.sql';
import { nodeAtPath } from './sql/paths.sql';

// Who is present in a project: the accounts with an unexpired stream of it (event_streams, the
// leases ChangeFeed renews), since their oldest such stream, where they said they are
// (project_presence, renewed with their streams' leases). Presence is no revision: it is kept
// outside the history, and none of its changes moves the project's revision or a tag.

/** A segment of a node's path (`/projects/P/blocks/B/…`: P is the 3rd, B the 5th, …). */
const segment = (path: string, n: number) => `split_part(${path}, '/', ${n})`;

/**
 * Whether `path` (of the shape SetPresenceDto accepts) is the path of the project `project` or
 * of a node in it: the deepest id it names, under the parents it names.
 */
function isPathOf(path: string, project: string): string {
  const ids = {
    projectId: project,
    blockId: `${segment(path, 5)}::uuid`,
    rowId: `${segment(path, 7)}::uuid`,
    columnId: `${segment(path, 9)}::uuid`,
    contentId: `${segment(path, 11)}::uuid`,
  };
  return `(${segment(path, 3)} = ${project}::text AND CASE
    WHEN ${segment(path, 11)} <> '' THEN ${nodeAtPath('content', ids)}
    WHEN ${segment(path, 9)} <> '' THEN ${nodeAtPath('column', ids)}
    WHEN ${segment(path, 7)} <> '' THEN ${nodeAtPath('row', ids)}
    WHEN ${segment(path, 5)} <> '' THEN ${nodeAtPath('block', ids)}
    ELSE true END)`;
}

type PresentRow = { json: string; located: boolean; next_expiry: number | null };

/**
 * The project's presence as its event's `data`: every present account once, ordered by when it
 * became present. A location whose node was deleted or moved away since it was said shows as
 * `null`, and is cleared in the same statement (so that an undo does not bring it back). With
 * `located` whether any account shows a location (a change of the tree may then clear one), and
 * when the first of the streams' leases runs out, unless renewed (epoch milliseconds).
 */
function presentStatement<P extends object, R>(name: string, caller: string): SqlStatement<P, R> {
  return sqlStatement(
    name,
    `WITH live AS (
       SELECT s.account_id, min(s.opened_at) AS since, min(s.expires_at) AS expires
       FROM event_streams s WHERE s.project_id = $projectId AND s.expires_at > now()
       GROUP BY s.account_id),
     said AS (
       SELECT pr.account_id, pr.location, pr.state,
         pr.location IS NULL OR ${isPathOf('pr.location', 'pr.project_id')} AS valid
       FROM project_presence pr WHERE pr.project_id = $projectId AND pr.expires_at > now()),
     cleared AS (
       UPDATE project_presence pr SET location = NULL FROM said s
       WHERE pr.project_id = $projectId AND pr.account_id = s.account_id AND NOT s.valid)
     SELECT ${caller}
       json_build_object('present', COALESCE(json_agg(json_build_object(
         'account', json_build_object('_id', a.id, 'username', a.username),
         'location', CASE WHEN s.valid THEN s.location END,
         'state', COALESCE(s.state, 'viewing'),
         'since', ${iso('v.since')}) ORDER BY v.since, v.account_id), '[]'))::text AS json,
       COALESCE(bool_or(s.valid AND s.location IS NOT NULL), false) AS located,
       (extract(epoch FROM min(v.expires)) * 1000)::float8 AS next_expiry
     FROM live v JOIN accounts a ON a.id = v.account_id
       LEFT JOIN said s ON s.account_id = v.account_id`,
  );
}

const PRESENT = presentStatement<{ projectId: string }, PresentRow>('presence.present', '');

const PRESENT_TO_MEMBER = presentStatement<ProjectScope, PresentRow & { member: boolean }>(
  'presence.present-to-member',
  `${isMember('$projectId::uuid')} AS member,`,
);

type SetParams = ProjectScope & {
  setLocation: boolean;
  location: string | null;
  state: PresenceState | null;
  leaseMs: number;
};

// Behind a share lock of the caller's membership, so that a removal meanwhile waits (or is
// seen): a row of one that is no member any more would break its key. A row that lapsed (its
// account stopped being present) counts as none: a member present again is `viewing` at `null`
// until it says otherwise.
const SET = sqlStatement<SetParams, { role: ProjectRole | null; valid: boolean; saved: boolean }>(
  'presence.set',
  `WITH member AS (
     SELECT m.role FROM project_members m
     WHERE m.project_id = $projectId AND m.account_id = $accountId FOR KEY SHARE),
   said AS (
     SELECT (NOT $setLocation::boolean OR $location::text IS NULL
       OR ${isPathOf('$location::text', '$projectId::uuid')}) AS valid,
       $state::presence_state IS DISTINCT FROM 'editing'
         OR (SELECT m.role >= 'editor' FROM member m) AS allowed),
   saved AS (
     INSERT INTO project_presence AS pr (project_id, account_id, location, state, expires_at)
     SELECT $projectId, $accountId, CASE WHEN $setLocation THEN $location END,
       COALESCE($state::presence_state, 'viewing'),
       now() + $leaseMs::int * interval '1 millisecond'
     FROM said s, member m WHERE s.valid AND s.allowed
     ON CONFLICT (project_id, account_id) DO UPDATE SET
       location = CASE WHEN $setLocation THEN EXCLUDED.location
         WHEN pr.expires_at <= now() THEN NULL ELSE pr.location END,
       state = COALESCE($state::presence_state,
         CASE WHEN pr.expires_at <= now() THEN 'viewing' ELSE pr.state END),
       expires_at = GREATEST(pr.expires_at, EXCLUDED.expires_at)
     RETURNING 1)
   SELECT (SELECT m.role FROM member m) AS role, s.valid, EXISTS (SELECT 1 FROM saved) AS saved
   FROM said s`,
);

/** A project's presence: its event's `data`, and what its feed needs to know of it. */
export interface Presence {
  readonly json: string;
  /** Whether some account shows a location, which a change of the tree may clear. */
  readonly located: boolean;
  /** When the first of its streams' leases lapses unless renewed (epoch ms), if any. */
  readonly nextExpiry?: number;
}

/** What a `PUT …/presence` came to. */
export type PresenceSaved =
  | 'saved'
  | 'no-member'
  | 'not-a-path'
  | { readonly refused: 'editing'; readonly role: ProjectRole };

const presenceOf = (row: PresentRow): Presence => ({
  json: row.json,
  located: row.located,
  ...(row.next_expiry === null ? {} : { nextExpiry: row.next_expiry }),
});

@Injectable()
export class PresenceRepository {
  /** The project's presence, for its streams (whoever they belong to). */
  async present(db: SqlSession, projectId: string): Promise<Presence> {
    const row = await db.row(PRESENT, { projectId });
    if (!row) throw new Error('presence.present: an aggregate always answers a row');
    return presenceOf(row);
  }

  /** The project's presence; undefined when the caller is not a member. */
  async presentTo(db: SqlSession, scope: ProjectScope): Promise<Presence | undefined> {
    const row = await db.row(PRESENT_TO_MEMBER, scope);
    return row?.member ? presenceOf(row) : undefined;
  }

  /**
   * Where the caller says it is: `location` (when `setLocation`) and `state` (when given), the
   * others kept; it lasts `leaseMs` unless the caller's streams renew it.
   */
  async set(db: SqlSession, params: SetParams): Promise<PresenceSaved> {
    const row = await db.row(SET, params);
    if (!row?.role) return 'no-member';
    if (!row.valid) return 'not-a-path';
    if (!row.saved) return { refused: 'editing', role: row.role };
    return 'saved';
  }
}
