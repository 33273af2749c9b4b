import { Injectable } from '@nestjs/common';
import { type Pending, type Statements } from '../../database/unit-of-work';
import { sqlStatement } from '../../database/sql-statement';

/** How long a key is kept: a retry within it replays the first answer. */
export const IDEMPOTENCY_KEY_HOURS = 24;

type Key = { accountId: string; key: string };

/** The first answer to a request, as kept for its key. */
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
  'idempotency-keys.forget-expired',
  `DELETE FROM idempotency_keys
   WHERE account_id = $accountId AND created_at < now() - interval '${IDEMPOTENCY_KEY_HOURS} hours'`,
);

// Taking the key: inserted by this transaction (a row), or already kept (none). A concurrent
// transaction inserting the same key makes this one wait for its outcome.
const CLAIM = sqlStatement<Key & { fingerprint: string }, { claimed: boolean }>(
  'idempotency-keys.claim',
  `INSERT INTO idempotency_keys (account_id, key, fingerprint, status, body)
   VALUES ($accountId, $key, $fingerprint, 0, '')
   ON CONFLICT (account_id, key) DO NOTHING
   RETURNING true AS claimed`,
);

const FIND = sqlStatement<Key, RememberedAnswer>(
  'idempotency-keys.find',
  `SELECT fingerprint, status, body, etag, location, project_revision AS "projectRevision"
   FROM idempotency_keys WHERE account_id = $accountId AND key = $key`,
);

const REMEMBER = sqlStatement<Key & Omit<RememberedAnswer, 'fingerprint'>, never>(
  'idempotency-keys.remember',
  `UPDATE idempotency_keys
   SET status = $status, body = $body, etag = $etag, location = $location,
       project_revision = $projectRevision
   WHERE account_id = $accountId AND key = $key`,
);

/** The kept answers of creates sent with `Idempotency-Key`; every statement in the create's transaction. */
@Injectable()
export class IdempotencyKeysRepository {
  /** True when this transaction took the key; false when it was kept already. */
  claim(round: Statements, key: Key, fingerprint: string): Pending<boolean> {
    round.rows(FORGET_EXPIRED, { accountId: key.accountId });
    return round.row(CLAIM, { ...key, fingerprint }).map((row) => row?.claimed === true);
  }

  find(round: Statements, key: Key): Pending<RememberedAnswer | undefined> {
    return round.row(FIND, key);
  }

  remember(round: Statements, key: Key, answer: Omit<RememberedAnswer, 'fingerprint'>): void {
    round.rows(REMEMBER, { ...key, ...answer });
  }
}
