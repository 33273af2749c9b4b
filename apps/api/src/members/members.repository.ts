import { Injectable } from '@nestjs/common';
import { type AddedMemberRole, type ProjectRole } from '@layout/contracts';
import { NOTIFICATION_SESSION_NAME } from '../notifications/notification-connection';
import { type SqlSession } from '../database/sql-session';
import { checkStatement, sqlStatement } from '../database/sql-statement';
import { type Pending, type Round } from '../database/unit-of-work';
import { type ProjectScope } from './project-scope';
import { isMember } from './membership.sql';
import {
  type MembershipNotice,
  membershipPayload,
  MEMBERSHIPS_CHANNEL,
} from './membership-notices';

/** A time as answers show it (ISO 8601, UTC, milliseconds). */
const iso = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A member as an answer shows it: `m` a project_members row, `a` its account. */
const MEMBER_JSON = (m: string, a: string) => `json_build_object(
  'account', json_build_object('_id', ${a}.id, 'username', ${a}.username),
  'role', ${m}.role, 'addedAt', ${iso(`${m}.added_at`)})`;

const ROLE_OF = checkStatement<ProjectScope, { role: ProjectRole }>(
  'members.role-of',
  `SELECT m.role FROM project_members m
   WHERE m.project_id = $projectId AND m.account_id = $accountId`,
);

// The owner first, then by the time they were added (the account breaking ties); NULL when the
// caller is not a member.
const LIST = sqlStatement<ProjectScope, { json: string | null }>(
  'members.list',
  `SELECT CASE WHEN ${isMember('$projectId::uuid')} THEN
     (SELECT COALESCE(json_agg(${MEMBER_JSON('m', 'a')}
        ORDER BY m.role = 'owner' DESC, m.added_at, m.account_id), '[]')::text
      FROM project_members m JOIN accounts a ON a.id = m.account_id
      WHERE m.project_id = $projectId)
   END AS json`,
);

// Changes of membership are serialised per project by its row lock, the one its writes take
// (briefly: a membership change is a few rows): the statements sent behind it, each a snapshot
// of its own, see every change committed before. A write in flight holds its author's
// membership (the lock's FOR SHARE, see projects.repository.ts): a removal or a change of role
// waits for it to commit.
const LOCK = sqlStatement<{ projectId: string }, { id: string }>(
  'members.lock-project',
  `SELECT p.id FROM projects p WHERE p.id = $projectId FOR NO KEY UPDATE`,
);

/** What a change of a member decides on: the caller's role and the target's, and the count. */
export interface MembershipState {
  /** The caller's role; undefined when it is no member (or no such project). */
  callerRole?: ProjectRole;
  /** The target account's role; undefined when it is no member. */
  targetRole?: ProjectRole;
  /** The account that a username names; undefined when none does. */
  targetId?: string;
  members: number;
}

type StateRow = {
  caller_role: ProjectRole | null;
  target_id: string | null;
  target_role: ProjectRole | null;
  members: number;
};

const STATE_COLUMNS = (target: string) => `(SELECT m.role FROM project_members m
    WHERE m.project_id = $projectId AND m.account_id = $accountId) AS caller_role,
  ${target} AS target_id,
  (SELECT m.role FROM project_members m
    WHERE m.project_id = $projectId AND m.account_id = ${target}) AS target_role,
  (SELECT count(*)::int FROM project_members m WHERE m.project_id = $projectId) AS members`;

// By username, compared by its key, as a sign-in does; a deleted account has none.
const STATE_BY_NAME = sqlStatement<ProjectScope & { usernameKey: string }, StateRow>(
  'members.state-by-username',
  `SELECT ${STATE_COLUMNS(`(SELECT a.id FROM accounts a
     WHERE a.username_key = $usernameKey AND a.deleted_at IS NULL)`)}`,
);

const STATE_BY_ID = sqlStatement<ProjectScope & { targetId: string }, StateRow>(
  'members.state-by-id',
  `SELECT ${STATE_COLUMNS('$targetId::uuid')}`,
);

const ADD = sqlStatement<
  { projectId: string; targetId: string; role: AddedMemberRole },
  { json: string }
>(
  'members.add',
  `WITH added AS (
     INSERT INTO project_members (project_id, account_id, role, project_created_at)
     SELECT p.id, $targetId, $role::project_role, p.created_at FROM projects p
     WHERE p.id = $projectId
     RETURNING *)
   SELECT ${MEMBER_JSON('m', 'a')}::text AS json
   FROM added m JOIN accounts a ON a.id = m.account_id`,
);

// A viewer is not `editing` any more: its presence says `viewing` from this change on.
const SET_ROLE = sqlStatement<
  { projectId: string; targetId: string; role: ProjectRole },
  { json: string }
>(
  'members.set-role',
  `WITH changed AS (
     UPDATE project_members m SET role = $role::project_role
     WHERE m.project_id = $projectId AND m.account_id = $targetId
     RETURNING *),
   viewing AS (
     UPDATE project_presence pr SET state = 'viewing'
     FROM changed c
     WHERE c.role = 'viewer' AND pr.project_id = c.project_id AND pr.account_id = c.account_id)
   SELECT ${MEMBER_JSON('m', 'a')}::text AS json
   FROM changed m JOIN accounts a ON a.id = m.account_id`,
);

// The owner hands the project over: the member becomes its owner (the account the project
// counts against, of the 10 000 it may own), the owner an editor, in one statement.
const HAND_OVER = sqlStatement<
  ProjectScope & { targetId: string },
  { json: string; projects: number }
>(
  'members.hand-over',
  `WITH roles AS (
     UPDATE project_members m
     SET role = CASE WHEN m.account_id = $targetId::uuid
       THEN 'owner'::project_role ELSE 'editor'::project_role END
     WHERE m.project_id = $projectId AND m.account_id IN ($accountId, $targetId)
     RETURNING *),
   owned AS (UPDATE projects p SET owner_id = $targetId WHERE p.id = $projectId RETURNING p.id),
   given AS (UPDATE accounts a SET project_count = a.project_count - 1
     WHERE a.id = $accountId RETURNING a.id),
   taken AS (UPDATE accounts a SET project_count = a.project_count + 1
     WHERE a.id = $targetId RETURNING a.project_count)
   SELECT ${MEMBER_JSON('m', 'a')}::text AS json, (SELECT t.project_count FROM taken t) AS projects
   FROM roles m JOIN accounts a ON a.id = m.account_id
   WHERE m.account_id = $targetId`,
);

const MEMBER = sqlStatement<{ projectId: string; targetId: string }, { json: string }>(
  'members.member',
  `SELECT ${MEMBER_JSON('m', 'a')}::text AS json FROM project_members m
   JOIN accounts a ON a.id = m.account_id
   WHERE m.project_id = $projectId AND m.account_id = $targetId`,
);

// Its streams' leases and its presence go with it (the foreign keys cascade).
const REMOVE = sqlStatement<{ projectId: string; targetId: string }, never>(
  'members.remove',
  `DELETE FROM project_members m WHERE m.project_id = $projectId AND m.account_id = $targetId`,
);

// Tells every instance, when and only if the transaction commits, and counts the instances
// listening at that moment (their notification sessions), which the request then waits for.
const TELL = sqlStatement<
  { channel: string; payload: string; session: string },
  { instances: number }
>(
  'members.tell',
  `SELECT (SELECT count(*)::int FROM pg_stat_activity
       WHERE application_name = $session AND datname = current_database()) AS instances,
     pg_notify($channel, $payload) IS NULL AS sent`,
);

@Injectable()
export class MembersRepository {
  /** The account's role in the project; undefined when it is not a member. */
  async roleOf(db: SqlSession, scope: ProjectScope): Promise<ProjectRole | undefined> {
    return (await db.check(ROLE_OF, scope))?.role;
  }

  /** The project's members, in order, as JSON; undefined when the caller is not a member. */
  async list(db: SqlSession, scope: ProjectScope): Promise<string | undefined> {
    return (await db.row(LIST, scope))?.json ?? undefined;
  }

  /**
   * Locks the project against its writers and other changes of membership, and reads behind
   * the lock what a change decides on: the target by its id, or by its username's key.
   */
  lockAndRead(
    round: Round,
    scope: ProjectScope,
    target: { targetId: string } | { usernameKey: string },
  ): Pending<MembershipState> {
    round.row(LOCK, { projectId: scope.projectId });
    const row =
      'targetId' in target
        ? round.row(STATE_BY_ID, { ...scope, ...target })
        : round.row(STATE_BY_NAME, { ...scope, ...target });
    return row.map((found) => ({
      callerRole: found?.caller_role ?? undefined,
      targetRole: found?.target_role ?? undefined,
      targetId: found?.target_id ?? undefined,
      members: found?.members ?? 0,
    }));
  }

  add(
    round: Round,
    member: { projectId: string; targetId: string; role: AddedMemberRole },
  ): Pending<string> {
    return round.row(ADD, member).map((row) => jsonOf(row, 'members.add'));
  }

  setRole(
    round: Round,
    member: { projectId: string; targetId: string; role: ProjectRole },
  ): Pending<string> {
    return round.row(SET_ROLE, member).map((row) => jsonOf(row, 'members.set-role'));
  }

  /** The new owner as a member, and the number of projects it owns with this one. */
  handOver(
    round: Round,
    scope: ProjectScope,
    targetId: string,
  ): Pending<{ json: string; projects: number }> {
    return round.row(HAND_OVER, { ...scope, targetId }).map((row) => {
      if (!row) throw new Error('members.hand-over: the member found under the lock is gone');
      return row;
    });
  }

  remove(round: Round, member: { projectId: string; targetId: string }): Pending<unknown> {
    return round.rows(REMOVE, member);
  }

  /** The member `targetId` as an answer shows it, read in the round. */
  member(round: Round, member: { projectId: string; targetId: string }): Pending<string> {
    return round.row(MEMBER, member).map((row) => jsonOf(row, 'members.member'));
  }

  /** Sends `notice` when the transaction commits; answers how many instances will hear it. */
  tell(round: Round, notice: MembershipNotice): Pending<number> {
    return round
      .row(TELL, {
        channel: MEMBERSHIPS_CHANNEL,
        payload: membershipPayload(notice),
        session: NOTIFICATION_SESSION_NAME,
      })
      .map((row) => row?.instances ?? 0);
  }
}

function jsonOf(row: { json: string } | undefined, statement: string): string {
  if (!row) throw new Error(`${statement}: the member found under the lock is gone`);
  return row.json;
}
