import { Injectable } from '@nestjs/common';
import { isMember } from '../members/membership.sql';
import { type SqlSession } from '../database/sql-session';
import { checkStatement, sqlStatement } from '../database/sql-statement';
import { type Pending, type Round, type Statements, type Step } from '../database/unit-of-work';

const ISO = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const ASSET_JSON = (a: string) => `json_build_object('_id', ${a}.id, 'url', '/assets/' || ${a}.id,
  'contentType', ${a}.content_type, 'size', ${a}.size, 'width', ${a}.width,
  'height', ${a}.height, 'sha256', ${a}.sha256, 'createdAt', ${ISO(`${a}.created_at`)})`;

// Where an asset's path is named: an image content's url, a content's or a block's background
// image. Each condition repeats the predicate of its index (the migration `publishing`), so
// that a generic plan can use it whatever the path.
const NAMES_IMAGE = (c: string, path: string) =>
  `(${c}.type = 'image' AND (${c}.data ->> 'url') LIKE '/assets/%' AND (${c}.data ->> 'url') = ${path})`;
const NAMES_BACKGROUND = (n: string, path: string) =>
  `((${n}.style ->> 'backgroundImage') LIKE '/assets/%' AND (${n}.style ->> 'backgroundImage') = ${path})`;

/** Every content and block, of any project, that names `path`, as their paths. */
const USES = (path: string) => `
  SELECT '/projects/' || r.project_id || '/blocks/' || r.block_id || '/rows/' || r.id
    || '/columns/' || col.id || '/contents/' || c.id AS path
  FROM contents c
  JOIN columns col ON col.project_id = c.project_id AND col.id = c.column_id
  JOIN rows r ON r.project_id = col.project_id AND r.id = col.row_id
  WHERE c.id IN (
    SELECT c.id FROM contents c WHERE ${NAMES_IMAGE('c', path)}
    UNION SELECT c.id FROM contents c WHERE ${NAMES_BACKGROUND('c', path)})
  UNION ALL
  SELECT '/projects/' || b.project_id || '/blocks/' || b.id FROM blocks b
  WHERE ${NAMES_BACKGROUND('b', path)}`;

/** Whether a project of which `$accountId` is a member names `path`. */
const NAMED_BY_ACCOUNT = (path: string) => `(
  EXISTS (SELECT 1 FROM contents c
    WHERE ${NAMES_IMAGE('c', path)} AND ${isMember('c.project_id')})
  OR EXISTS (SELECT 1 FROM contents c
    WHERE ${NAMES_BACKGROUND('c', path)} AND ${isMember('c.project_id')})
  OR EXISTS (SELECT 1 FROM blocks b
    WHERE ${NAMES_BACKGROUND('b', path)} AND ${isMember('b.project_id')}))`;

/** Whether any project names `path`. */
const NAMED = (path: string) => `(
  EXISTS (SELECT 1 FROM contents c WHERE ${NAMES_IMAGE('c', path)})
  OR EXISTS (SELECT 1 FROM contents c WHERE ${NAMES_BACKGROUND('c', path)})
  OR EXISTS (SELECT 1 FROM blocks b WHERE ${NAMES_BACKGROUND('b', path)}))`;

type Upload = {
  accountId: string;
  id: string;
  sha256: string;
  contentType: string;
  size: number;
  width: number;
  height: number;
  quota: number;
};

const BEFORE_UPLOAD = sqlStatement<
  { accountId: string; sha256: string },
  { asset_bytes: string; existing: string | null }
>(
  'assets.before-upload',
  `SELECT c.asset_bytes, (SELECT ${ASSET_JSON('a')}::text FROM assets a
     WHERE a.owner_id = c.id AND a.sha256 = $sha256) AS existing
   FROM accounts c WHERE c.id = $accountId AND c.deleted_at IS NULL`,
);

// The account's row lock serialises its uploads' registrations: the statement after it sees
// every asset registered before, so neither the same bytes twice nor the quota is missed.
const LOCK_ACCOUNT = sqlStatement<{ accountId: string }, { id: string }>(
  'assets.lock-account',
  'SELECT c.id FROM accounts c WHERE c.id = $accountId AND c.deleted_at IS NULL FOR UPDATE',
);

const REGISTER = sqlStatement<
  Upload,
  { found: boolean; existing: string | null; inserted: string | null }
>(
  'assets.register',
  `WITH account AS (
     SELECT c.id, c.asset_bytes FROM accounts c WHERE c.id = $accountId AND c.deleted_at IS NULL),
   existing AS (
     SELECT a.* FROM assets a WHERE a.owner_id = $accountId AND a.sha256 = $sha256),
   inserted AS (
     INSERT INTO assets (id, owner_id, sha256, content_type, size, width, height)
     SELECT $id::uuid, c.id, $sha256, $contentType, $size::int, $width::int, $height::int
     FROM account c
     WHERE NOT EXISTS (SELECT 1 FROM existing) AND c.asset_bytes + $size::int <= $quota::bigint
     RETURNING *),
   charged AS (
     UPDATE accounts c SET asset_bytes = c.asset_bytes + i.size FROM inserted i
     WHERE c.id = i.owner_id RETURNING c.id)
   SELECT EXISTS (SELECT 1 FROM account) AS found,
     (SELECT ${ASSET_JSON('a')}::text FROM existing a) AS existing,
     (SELECT ${ASSET_JSON('a')}::text FROM inserted a WHERE EXISTS (SELECT 1 FROM charged)) AS inserted`,
);

const PAGE = sqlStatement<
  { accountId: string; limit: number | null; after: string | null },
  { json: string; more: boolean; last: string | null }
>(
  'assets.page',
  `WITH after AS (SELECT a.created_at, a.id FROM assets a
     WHERE a.id = $after::uuid AND a.owner_id = $accountId),
   page AS (
     SELECT a.*, row_number() OVER (ORDER BY a.created_at DESC, a.id DESC) AS n FROM assets a
     WHERE a.owner_id = $accountId
       AND ($after::uuid IS NULL OR (a.created_at, a.id) < (SELECT created_at, id FROM after))
     ORDER BY a.created_at DESC, a.id DESC
     LIMIT COALESCE($limit::int + 1, NULL))
   SELECT COALESCE(json_agg(${ASSET_JSON('p')} ORDER BY p.n)
       FILTER (WHERE $limit::int IS NULL OR p.n <= $limit::int), '[]')::text AS json,
     count(*) > COALESCE($limit::int, 2147483647) AS more,
     (array_agg(p.id::text ORDER BY p.n DESC)
       FILTER (WHERE $limit::int IS NULL OR p.n <= $limit::int))[1] AS last
   FROM page p`,
);

/** What a read of the bytes needs: one small lookup by primary key. */
const FIND = checkStatement<
  { assetId: string },
  { content_type: string; size: number; sha256: string }
>('assets.find', 'SELECT a.content_type, a.size, a.sha256 FROM assets a WHERE a.id = $assetId');

const DELETE = sqlStatement<
  { accountId: string; assetId: string; path: string },
  { found: boolean; paths: string[] | null; deleted: boolean }
>(
  'assets.delete',
  `WITH target AS (
     SELECT a.id, a.size FROM assets a WHERE a.id = $assetId::uuid AND a.owner_id = $accountId
     FOR UPDATE),
   uses AS (SELECT u.path FROM (${USES('$path::text')}) u ORDER BY u.path LIMIT 100),
   deleted AS (
     DELETE FROM assets a USING target t
     WHERE a.id = t.id AND NOT EXISTS (SELECT 1 FROM uses) RETURNING a.size),
   refunded AS (
     UPDATE accounts c SET asset_bytes = c.asset_bytes - d.size FROM deleted d
     WHERE c.id = $accountId RETURNING c.id)
   SELECT EXISTS (SELECT 1 FROM target) AS found,
     (SELECT array_agg(u.path) FROM uses u) AS paths,
     EXISTS (SELECT 1 FROM refunded) AS deleted`,
);

/**
 * The assets of `$ids` that still exist, held until the transaction ends: no deletion takes
 * them meanwhile (it locks the row for update first).
 */
const HOLD = sqlStatement<{ ids: string[] }, { id: string }>(
  'assets.hold',
  `SELECT a.id FROM assets a WHERE a.id = ANY ($ids::uuid[]) FOR KEY SHARE`,
);

/** The caller's asset, locked for its deletion: the uses are looked for once it is held. */
const LOCK_FOR_DELETE = sqlStatement<{ accountId: string; assetId: string }, { id: string }>(
  'assets.lock-for-delete',
  `SELECT a.id FROM assets a WHERE a.id = $assetId::uuid AND a.owner_id = $accountId FOR UPDATE`,
);

/**
 * Of `$ids`, the assets the caller may name: it uploaded them, or a project of which it is a
 * member names them.
 */
const NAMEABLE = sqlStatement<{ accountId: string; ids: string[] }, { id: string }>(
  'assets.nameable',
  `SELECT a.id FROM assets a
   WHERE a.id = ANY ($ids::uuid[])
     AND (a.owner_id = $accountId OR ${NAMED_BY_ACCOUNT(`'/assets/' || a.id`)})`,
);

/**
 * Assets whose account was deleted and which no project names any more, a batch at a time,
 * locked by whichever instance takes them first (SWEEP deletes them).
 */
const LOCK_UNOWNED = sqlStatement<{ batch: number }, { id: string }>(
  'assets.lock-unowned',
  `SELECT o.id FROM assets o
   WHERE o.owner_id IS NULL AND NOT ${NAMED(`'/assets/' || o.id`)}
   LIMIT $batch::int FOR UPDATE SKIP LOCKED`,
);

/** Of the locked `$ids`, those that nothing names once they are held: deleted. */
const SWEEP = sqlStatement<{ ids: string[] }, { id: string }>(
  'assets.sweep-unowned',
  `DELETE FROM assets a
   WHERE a.id = ANY ($ids::uuid[]) AND a.owner_id IS NULL AND NOT ${NAMED(`'/assets/' || a.id`)}
   RETURNING a.id`,
);

/** A registration's outcome (see register). */
export interface Registered {
  /** Whether the account exists (it may have been deleted since its token was checked). */
  readonly found: boolean;
  /** The account's asset with these bytes, registered before. */
  readonly existing: string | null;
  /** The new asset; null with neither: over the account's quota. */
  readonly inserted: string | null;
}

@Injectable()
export class AssetsRepository {
  /** The account's bytes so far, and its asset with these bytes if any; undefined: no account. */
  beforeUpload(db: SqlSession, accountId: string, sha256: string) {
    return db.row(BEFORE_UPLOAD, { accountId, sha256 });
  }

  /** Registers an upload whose bytes are stored, under the account's lock (one round). */
  register(round: Round, upload: Upload): Pending<Registered | undefined> {
    round.row(LOCK_ACCOUNT, { accountId: upload.accountId });
    return round.row(REGISTER, upload);
  }

  page(db: SqlSession, accountId: string, limit: number | null, after: string | null) {
    return db.row(PAGE, { accountId, limit, after });
  }

  find(db: SqlSession, assetId: string) {
    return db.check(FIND, { assetId });
  }

  /**
   * Deletes the caller's asset unless something names it (then its uses' paths, up to 100). The
   * row is locked by a statement of its own, so that the uses are looked for in a snapshot
   * taken once it is held: a write that held it (AssetNames.held) has committed by then.
   */
  delete(round: Statements, accountId: string, assetId: string) {
    round.rows(LOCK_FOR_DELETE, { accountId, assetId });
    return round.row(DELETE, { accountId, assetId, path: `/assets/${assetId}` });
  }

  /** The assets of `ids` that exist, held (`FOR KEY SHARE`) until the transaction ends. */
  hold(round: Statements, ids: string[]): Pending<Set<string>> {
    return round.rows(HOLD, { ids }).map((rows) => new Set(rows.map((row) => row.id)));
  }

  async nameable(db: SqlSession, accountId: string, ids: string[]): Promise<Set<string>> {
    const rows = await db.rows(NAMEABLE, { accountId, ids });
    return new Set(rows.map((row) => row.id));
  }

  /**
   * Deletes up to `batch` assets of deleted accounts that nothing names, and answers their ids
   * and how many were locked: their uses are looked for again once they are held, as a
   * deletion's are.
   */
  sweepUnowned(round: Round, batch: number): Step<{ deleted: string[]; locked: number }> {
    const locked = round.rows(LOCK_UNOWNED, { batch });
    return round.next((next) => {
      const ids = locked.get().map((row) => row.id);
      if (ids.length === 0) return next.finish(() => ({ deleted: [], locked: 0 }));
      const deleted = next.rows(SWEEP, { ids });
      return next.finish(() => ({
        deleted: deleted.get().map((row) => row.id),
        locked: ids.length,
      }));
    });
  }
}
