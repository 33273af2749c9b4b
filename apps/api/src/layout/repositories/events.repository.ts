import { Injectable } from '@nestjs/common';
import { type RevisionOperation } from '@layout/contracts';
import { type SqlSession } from '../../database/sql-session';
import { sqlStatement } from '../../database/sql-statement';
import { type Pending, type Round } from '../../database/unit-of-work';
import { type ProjectScope } from '../layout.scopes';
import { KEPT_BY } from './sql/history.sql';

// The live changes of a project are its history read as it grows: what a stream sends comes
// from `revisions`, never from the notifications, which only say that there is more to read.

const CURRENT = sqlStatement<ProjectScope, { revision: number }>(
  'events.current-revision',
  `SELECT p.revision FROM projects p WHERE p.id = $projectId AND p.owner_id = $accountId`,
);

// The project's current revision, and its kept revisions after `$after`, oldest first: no row
// when the project is gone.
const AFTER = sqlStatement<
  { projectId: string; after: number; limit: number; kept: number },
  {
    current: number;
    revision: number | null;
    operation: RevisionOperation | null;
    path: string | null;
  }
>(
  'events.revisions-after',
  `SELECT p.revision AS current, h.revision, h.operation, h.path
   FROM projects p LEFT JOIN LATERAL (
     SELECT h.revision, h.operation, h.path FROM revisions h
     WHERE h.project_id = p.id AND h.revision > $after::int AND ${KEPT_BY('p', 'h')}
     ORDER BY h.revision LIMIT $limit::int) h ON true
   WHERE p.id = $projectId
   ORDER BY h.revision`,
);

// A ticket of the caller's project; the account's expired ones go at the same time.
const ISSUE_TICKET = sqlStatement<
  ProjectScope & { ticketHash: string; ttlSeconds: number },
  { issued: boolean }
>(
  'events.issue-ticket',
  `WITH expired AS (DELETE FROM event_tickets t
       WHERE t.account_id = $accountId AND t.expires_at < now()),
     issued AS (
       INSERT INTO event_tickets (ticket_hash, account_id, project_id, expires_at)
       SELECT $ticketHash, p.owner_id, p.id, now() + $ttlSeconds::int * interval '1 second'
       FROM projects p WHERE p.id = $projectId AND p.owner_id = $accountId
       RETURNING true AS issued)
   SELECT i.issued FROM issued i`,
);

// Used once, whatever it finds: a ticket of another project stays unused and answers nothing.
const REDEEM_TICKET = sqlStatement<
  { projectId: string; ticketHash: string },
  { account_id: string; valid: boolean }
>(
  'events.redeem-ticket',
  `DELETE FROM event_tickets t WHERE t.ticket_hash = $ticketHash AND t.project_id = $projectId
   RETURNING t.account_id, t.expires_at > now() AS valid`,
);

// The account's row lock serialises the openings of its streams, on every instance: the count
// that follows, in a statement of its own (a snapshot taken after the lock), is exact.
const LOCK_ACCOUNT = sqlStatement<{ accountId: string }, { id: string }>(
  'events.lock-account',
  `SELECT a.id FROM accounts a WHERE a.id = $accountId AND a.deleted_at IS NULL FOR UPDATE`,
);

const OPEN_STREAM = sqlStatement<
  { accountId: string; streamId: string; leaseMs: number; max: number },
  { id: string }
>(
  'events.open-stream',
  `WITH expired AS (DELETE FROM event_streams s
       WHERE s.account_id = $accountId AND s.expires_at <= now()),
     open AS (SELECT count(*) AS n FROM event_streams s
       WHERE s.account_id = $accountId AND s.expires_at > now())
   INSERT INTO event_streams (id, account_id, expires_at)
   SELECT $streamId, a.id, now() + $leaseMs::int * interval '1 millisecond'
   FROM accounts a, open o
   WHERE a.id = $accountId AND a.deleted_at IS NULL AND o.n < $max::int
   RETURNING id`,
);

const RENEW_STREAMS = sqlStatement<{ ids: string[]; leaseMs: number }, never>(
  'events.renew-streams',
  `UPDATE event_streams s SET expires_at = now() + $leaseMs::int * interval '1 millisecond'
   WHERE s.id = ANY ($ids::uuid[])`,
);

const CLOSE_STREAMS = sqlStatement<{ ids: string[] }, never>(
  'events.close-streams',
  `DELETE FROM event_streams s WHERE s.id = ANY ($ids::uuid[])`,
);

/** One recorded revision, as a stream sends it. */
export interface RecordedRevision {
  revision: number;
  operation: RevisionOperation;
  path: string;
}

/** What a project's history holds after some revision: the current one, and those kept. */
export interface RevisionsAfter {
  current: number;
  revisions: RecordedRevision[];
}

@Injectable()
export class EventsRepository {
  /** The project's current revision; undefined when it is not the caller's. */
  async currentRevision(db: SqlSession, scope: ProjectScope): Promise<number | undefined> {
    return (await db.row(CURRENT, scope))?.revision;
  }

  /** At most `limit` kept revisions after `after`, oldest first; undefined once the project is gone. */
  async revisionsAfter(
    db: SqlSession,
    query: { projectId: string; after: number; limit: number; kept: number },
  ): Promise<RevisionsAfter | undefined> {
    const rows = await db.rows(AFTER, query);
    if (rows.length === 0) return undefined;
    const revisions: RecordedRevision[] = [];
    for (const row of rows) {
      if (row.revision !== null && row.operation !== null && row.path !== null) {
        revisions.push({ revision: row.revision, operation: row.operation, path: row.path });
      }
    }
    return { current: rows[0].current, revisions };
  }

  /** Stores a ticket's digest for the caller's project; false when the project is not theirs. */
  async issueTicket(
    db: SqlSession,
    scope: ProjectScope,
    ticketHash: string,
    ttlSeconds: number,
  ): Promise<boolean> {
    return (await db.row(ISSUE_TICKET, { ...scope, ticketHash, ttlSeconds }))?.issued === true;
  }

  /** The account of a ticket of this project, used up by this call; undefined if none is valid. */
  async redeemTicket(
    db: SqlSession,
    projectId: string,
    ticketHash: string,
  ): Promise<string | undefined> {
    const row = await db.row(REDEEM_TICKET, { projectId, ticketHash });
    return row?.valid ? row.account_id : undefined;
  }

  /**
   * Counts a new stream of the account, if it has fewer than `max` open on all instances:
   * behind the account's row lock, in the transaction whose round this is.
   */
  openStream(
    round: Round,
    stream: { accountId: string; streamId: string; leaseMs: number; max: number },
  ): Pending<boolean> {
    round.row(LOCK_ACCOUNT, { accountId: stream.accountId });
    return round.row(OPEN_STREAM, stream).map((row) => row !== undefined);
  }

  /** Keeps this instance's open streams counted for another lease. */
  async renewStreams(db: SqlSession, ids: string[], leaseMs: number): Promise<void> {
    if (ids.length > 0) await db.rows(RENEW_STREAMS, { ids, leaseMs });
  }

  /** The streams no longer count against their accounts. */
  async closeStreams(db: SqlSession, ids: string[]): Promise<void> {
    if (ids.length > 0) await db.rows(CLOSE_STREAMS, { ids });
  }
}
