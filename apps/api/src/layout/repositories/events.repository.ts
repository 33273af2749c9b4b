import { Injectable } from '@nestjs/common';
import { type AccountRef, type RevisionOperation } from '@layout/contracts';
import { isMember } from '../../members/membership.sql';
import { type SqlSession } from '../../database/sql-session';
import { sqlStatement } from '../../database/sql-statement';
import { type Pending, type Round } from '../../database/unit-of-work';
import { type ProjectScope } from '../layout.scopes';
import { AUTHOR_JSON, KEPT_BY } from './sql/history.sql';

// The live changes of a project are its history read as it grows: what a stream sends comes
// from `revisions`, never from the notifications, which only say that there is more to read.

const CURRENT = sqlStatement<ProjectScope, { revision: number }>(
  'events.current-revision',
  `SELECT p.revision FROM projects p WHERE p.id = $projectId AND ${isMember('p.id')}`,
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
    author: AccountRef | null;
  }
>(
  'events.revisions-after',
  `SELECT p.revision AS current, h.revision, h.operation, h.path, h.author
   FROM projects p LEFT JOIN LATERAL (
     SELECT h.revision, h.operation, h.path, ${AUTHOR_JSON} AS author FROM revisions h
     WHERE h.project_id = p.id AND h.revision > $after::int AND ${KEPT_BY('p', 'h')}
     ORDER BY h.revision LIMIT $limit::int) h ON true
   WHERE p.id = $projectId
   ORDER BY h.revision`,
);

/**
 * The caller's token, while it is valid, locked against its revocation until the statement's
 * transaction ends: what is tied to it (a ticket, a stream's lease) is inserted only if the token
 * is still there, and so never fails its foreign key when a revocation comes in between.
 */
const VALID_TOKEN = `token AS (
       SELECT tk.token_hash FROM access_tokens tk
       WHERE tk.token_hash = $tokenHash AND tk.account_id = $accountId AND tk.expires_at > now()
       FOR KEY SHARE)`;

// A ticket of a project the caller is a member of, tied to the caller's token; the account's
// expired ones go at the same time.
const ISSUE_TICKET = sqlStatement<
  ProjectScope & { ticketHash: string; ttlSeconds: number; tokenHash: string },
  { token_valid: boolean; issued: boolean }
>(
  'events.issue-ticket',
  `WITH expired AS (DELETE FROM event_tickets t
       WHERE t.account_id = $accountId AND t.expires_at < now()),
     ${VALID_TOKEN},
     issued AS (
       INSERT INTO event_tickets (ticket_hash, account_id, project_id, expires_at, token_hash)
       SELECT $ticketHash, $accountId, p.id, now() + $ttlSeconds::int * interval '1 second',
         t.token_hash
       FROM projects p, token t WHERE p.id = $projectId AND ${isMember('p.id')}
       RETURNING true AS issued)
   SELECT EXISTS (SELECT 1 FROM token) AS token_valid, EXISTS (SELECT 1 FROM issued) AS issued`,
);

type TicketRow = { account_id: string; token_hash: string; valid: boolean };

/** Whose stream a ticket opens: undefined when there is no such ticket or it expired. */
const holderOf = (row: TicketRow | undefined): StreamSession | undefined =>
  row?.valid ? { accountId: row.account_id, tokenHash: row.token_hash } : undefined;

// Used once, whatever it finds: a ticket of another project stays unused and answers nothing.
const REDEEM_TICKET = sqlStatement<{ projectId: string; ticketHash: string }, TicketRow>(
  'events.redeem-ticket',
  `DELETE FROM event_tickets t WHERE t.ticket_hash = $ticketHash AND t.project_id = $projectId
   RETURNING t.account_id, t.token_hash, t.expires_at > now() AS valid`,
);

// What a HEAD of the stream asks of its ticket: the same answer as REDEEM_TICKET, the ticket left
// unused (a HEAD changes nothing).
const TICKET_HOLDER = sqlStatement<{ projectId: string; ticketHash: string }, TicketRow>(
  'events.ticket-holder',
  `SELECT t.account_id, t.token_hash, t.expires_at > now() AS valid
   FROM event_tickets t WHERE t.ticket_hash = $ticketHash AND t.project_id = $projectId`,
);

// The account's row lock serialises the openings of its streams, on every instance: the count
// that follows, in a statement of its own (a snapshot taken after the lock), is exact.
const LOCK_ACCOUNT = sqlStatement<{ accountId: string }, { id: string }>(
  'events.lock-account',
  `SELECT a.id FROM accounts a WHERE a.id = $accountId AND a.deleted_at IS NULL FOR UPDATE`,
);

// The lease names the project, as its member: ending the membership deletes it (the foreign key
// cascades), which a renewal then finds.
const OPEN_STREAM = sqlStatement<
  {
    accountId: string;
    projectId: string;
    streamId: string;
    leaseMs: number;
    max: number;
    tokenHash: string;
  },
  { token_valid: boolean; member: boolean; opened: boolean }
>(
  'events.open-stream',
  `WITH expired AS (DELETE FROM event_streams s
       WHERE s.account_id = $accountId AND s.expires_at <= now()),
     open AS (SELECT count(*) AS n FROM event_streams s
       WHERE s.account_id = $accountId AND s.expires_at > now()),
     ${VALID_TOKEN},
     inserted AS (
       INSERT INTO event_streams (id, account_id, project_id, expires_at, token_hash)
       SELECT $streamId, a.id, m.project_id, now() + $leaseMs::int * interval '1 millisecond',
         t.token_hash
       FROM accounts a, open o, token t, project_members m
       WHERE a.id = $accountId AND a.deleted_at IS NULL AND o.n < $max::int
         AND m.project_id = $projectId AND m.account_id = a.id
       RETURNING id)
   SELECT EXISTS (SELECT 1 FROM token) AS token_valid, ${isMember('$projectId')} AS member,
     EXISTS (SELECT 1 FROM inserted) AS opened`,
);

// Only while the token the stream was opened with is valid and its account a member of the
// project: a revocation, or the end of the membership, deletes the lease (the foreign keys
// cascade); an expired token's stream is not renewed either. Where the renewed streams' accounts
// said they are in their projects lives as long, unless it lapsed already (its account stopped
// being present: when present again, it says anew).
const RENEW_STREAMS = sqlStatement<{ ids: string[]; leaseMs: number }, { id: string }>(
  'events.renew-streams',
  `WITH renewed AS (
     UPDATE event_streams s SET expires_at = now() + $leaseMs::int * interval '1 millisecond'
     WHERE s.id = ANY ($ids::uuid[]) AND EXISTS (SELECT 1 FROM access_tokens tk
       WHERE tk.token_hash = s.token_hash AND tk.expires_at > now())
     RETURNING s.id, s.project_id, s.account_id, s.expires_at),
   located AS (
     UPDATE project_presence pr SET expires_at = r.expires_at
     FROM (SELECT DISTINCT ON (project_id, account_id) * FROM renewed) r
     WHERE pr.project_id = r.project_id AND pr.account_id = r.account_id
       AND pr.expires_at > now())
   SELECT r.id FROM renewed r`,
);

// An account whose last stream of a project closes is no longer present there: where it said
// it is goes too (the statement's snapshot does not see its own deletes, hence the ids).
const CLOSE_STREAMS = sqlStatement<{ ids: string[] }, never>(
  'events.close-streams',
  `WITH closed AS (
     DELETE FROM event_streams s WHERE s.id = ANY ($ids::uuid[])
     RETURNING s.project_id, s.account_id)
   DELETE FROM project_presence pr USING closed c
   WHERE pr.project_id = c.project_id AND pr.account_id = c.account_id
     AND NOT EXISTS (SELECT 1 FROM event_streams s
       WHERE s.project_id = c.project_id AND s.account_id = c.account_id
         AND s.expires_at > now() AND s.id <> ALL ($ids::uuid[]))`,
);

/** Whose a stream is: an account, by the token it was opened with (or its ticket's). */
export interface StreamSession {
  readonly accountId: string;
  readonly tokenHash: string;
}

/** One recorded revision, as a stream sends it. */
export interface RecordedRevision {
  revision: number;
  operation: RevisionOperation;
  path: string;
  author: AccountRef | null;
}

/** What a project's history holds after some revision: the current one, and those kept. */
export interface RevisionsAfter {
  current: number;
  revisions: RecordedRevision[];
}

@Injectable()
export class EventsRepository {
  /** The project's current revision; undefined when the caller is not a member of it. */
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
        const { revision, operation, path, author } = row;
        revisions.push({ revision, operation, path, author });
      }
    }
    return { current: rows[0].current, revisions };
  }

  /**
   * Stores a ticket's digest for a project the caller is a member of, if the token is still
   * valid.
   */
  async issueTicket(
    db: SqlSession,
    session: ProjectScope & { tokenHash: string },
    ticketHash: string,
    ttlSeconds: number,
  ): Promise<'issued' | 'no-project' | 'token-gone'> {
    const row = await db.row(ISSUE_TICKET, { ...session, ticketHash, ttlSeconds });
    if (!row?.token_valid) return 'token-gone';
    return row.issued ? 'issued' : 'no-project';
  }

  /**
   * The account and token of a ticket of this project, used up by this call; undefined if none
   * is valid.
   */
  async redeemTicket(
    db: SqlSession,
    projectId: string,
    ticketHash: string,
  ): Promise<StreamSession | undefined> {
    return holderOf(await db.row(REDEEM_TICKET, { projectId, ticketHash }));
  }

  /** As redeemTicket, the ticket left unused. */
  async ticketHolder(
    db: SqlSession,
    projectId: string,
    ticketHash: string,
  ): Promise<StreamSession | undefined> {
    return holderOf(await db.row(TICKET_HOLDER, { projectId, ticketHash }));
  }

  /**
   * Counts a new stream of the account, if its token is still valid, it is still a member of
   * the project, and it has fewer than `max` open on all instances: behind the account's row
   * lock, in the transaction whose round this is.
   */
  openStream(
    round: Round,
    stream: StreamSession & { projectId: string; streamId: string; leaseMs: number; max: number },
  ): Pending<'opened' | 'full' | 'token-gone' | 'no-project'> {
    round.row(LOCK_ACCOUNT, { accountId: stream.accountId });
    return round.row(OPEN_STREAM, stream).map((row) => {
      if (!row?.token_valid) return 'token-gone';
      if (!row.member) return 'no-project';
      return row.opened ? 'opened' : 'full';
    });
  }

  /**
   * Keeps this instance's open streams counted for another lease; answers those it renewed.
   * The others' tokens were revoked or have expired (or their leases ran out): they end.
   */
  async renewStreams(db: SqlSession, ids: string[], leaseMs: number): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    return new Set((await db.rows(RENEW_STREAMS, { ids, leaseMs })).map((row) => row.id));
  }

  /** The streams no longer count against their accounts. */
  async closeStreams(db: SqlSession, ids: string[]): Promise<void> {
    if (ids.length > 0) await db.rows(CLOSE_STREAMS, { ids });
  }
}
