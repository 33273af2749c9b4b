import { Injectable } from '@nestjs/common';
import { type SqlSession } from '../../database/sql-session';
import { sqlStatement } from '../../database/sql-statement';

/** How long a key is kept: a retry within it replays the first answer. */
export const IDEMPOTENCY_KEY_HOURS = 24;

type Key = { accountId: string; key: string };

/** The first answer to a create, as kept for its key. */
export interface RememberedAnswer {
  fingerprint: string;
  status: number;
  body: string;
  etag: string | null;
  location: string | null;
  projectRevision: number | null;
}

// The account's keys past their day go, so that the table holds one day of keys at most.
const FORGET_EXPIRED = sqlStatement<{ accountId: string }, never>(
  'idempotency-key.forget-expired',
  `DELETE FROM idempotency_keys
   WHERE account_id = $accountId AND created_at < now() - interval '${IDEMPOTENCY_KEY_HOURS} hours'`,
);

// Taking the key: inserted by this transaction (a row), or already kept (none). A concurrent
// transaction inserting the same key makes this one wait for its outcome.
const CLAIM = sqlStatement<Key & { fingerprint: string }, { claimed: boolean }>(
  'idempotency-key.claim',
  `INSERT INTO idempotency_keys (account_id, key, fingerprint, status, body)
   VALUES ($accountId, $key, $fingerprint, 0, '')
   ON CONFLICT (account_id, key) DO NOTHING
   RETURNING true AS claimed`,
);

const FIND = sqlStatement<Key, RememberedAnswer>(
  'idempotency-key.find',
  `SELECT fingerprint, status, body, etag, location, project_revision AS "projectRevision"
   FROM idempotency_keys WHERE account_id = $accountId AND key = $key`,
);

const REMEMBER = sqlStatement<Key & Omit<RememberedAnswer, 'fingerprint'>, never>(
  'idempotency-key.remember',
  `UPDATE idempotency_keys
   SET status = $status, body = $body, etag = $etag, location = $location,
       project_revision = $projectRevision
   WHERE account_id = $accountId AND key = $key`,
);

/** The kept answers of creates sent with `Idempotency-Key`; every statement in the create's transaction. */
@Injectable()
export class IdempotencyKeysRepository {
  /** True when this transaction took the key; false when it was kept already. */
  async claim(tx: SqlSession, key: Key, fingerprint: string): Promise<boolean> {
    await tx.rows(FORGET_EXPIRED, { accountId: key.accountId });
    return (await tx.row(CLAIM, { ...key, fingerprint }))?.claimed === true;
  }

  find(tx: SqlSession, key: Key): Promise<RememberedAnswer | undefined> {
    return tx.row(FIND, key);
  }

  async remember(
    tx: SqlSession,
    key: Key,
    answer: Omit<RememberedAnswer, 'fingerprint'>,
  ): Promise<void> {
    await tx.rows(REMEMBER, { ...key, ...answer });
  }
}
