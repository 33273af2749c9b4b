import { Injectable } from '@nestjs/common';
import { type SqlSession } from '../../database/sql-session';
import { checkStatement, sqlStatement } from '../../database/sql-statement';
import { type Pending, type Round } from '../../database/unit-of-work';
import { type ProjectScope } from '../../layout/layout.scopes';
import { isMember } from '../../members/membership.sql';

const ISO = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const LINK_JSON = (l: string, url: string) => `json_build_object('_id', ${l}.id, 'url', ${url},
  'revision', ${l}.revision, 'createdAt', ${ISO(`${l}.created_at`)},
  'expiresAt', ${ISO(`${l}.expires_at`)}, 'views', ${l}.views,
  'lastViewedAt', ${ISO(`${l}.last_viewed_at`)})`;

/** A link that works: not expired (a revoked one has no row). */
const LIVE = (l: string) => `(${l}.expires_at IS NULL OR ${l}.expires_at > now())`;

/**
 * The project, if the caller is a member of it. Which members may create, list or revoke links
 * is the routes' policy (members/policy), applied before the request reaches the service.
 */
const CALLERS_PROJECT = `SELECT p.id, p.revision FROM projects p
  WHERE p.id = $projectId AND ${isMember('p.id')}`;

// Links are counted behind the project's row lock, which serialises their creation with each
// other (and with the project's writes, which hold it as briefly): the count that the insert
// checks then sees every link committed before it.
const LOCK = sqlStatement<ProjectScope, { id: string }>(
  'links.lock-project',
  `SELECT p.id FROM projects p WHERE p.id = $projectId AND ${isMember('p.id')}
   FOR NO KEY UPDATE`,
);

type CreateParams = ProjectScope & {
  id: string;
  tokenHash: string;
  url: string;
  revision: number | null;
  expiresAt: string | null;
  kept: number;
  max: number;
};

const CREATE = sqlStatement<
  CreateParams,
  { member: boolean; kept: boolean; live: number; json: string | null }
>(
  'links.create',
  `WITH project AS (${CALLERS_PROJECT}),
   target AS (
     SELECT p.id, h.revision FROM project p
     JOIN revisions h ON h.project_id = p.id AND h.revision = COALESCE($revision::int, p.revision)
       AND h.revision > p.revision - $kept::int),
   live AS (SELECT count(*)::int AS n FROM share_links l
     WHERE l.project_id = $projectId AND ${LIVE('l')}),
   inserted AS (
     INSERT INTO share_links (id, project_id, token_hash, revision, expires_at)
     SELECT $id::uuid, t.id, $tokenHash, t.revision, $expiresAt::timestamptz
     FROM target t, live WHERE live.n < $max::int
     RETURNING *)
   SELECT EXISTS (SELECT 1 FROM project) AS member, EXISTS (SELECT 1 FROM target) AS kept,
     (SELECT n FROM live) AS live,
     (SELECT ${LINK_JSON('l', '$url::text')}::text FROM inserted l) AS json`,
);

const LIST = sqlStatement<ProjectScope, { json: string }>(
  'links.list',
  `SELECT COALESCE((SELECT json_agg(${LINK_JSON('l', 'NULL::text')}
       ORDER BY l.created_at DESC, l.id DESC)
     FROM share_links l WHERE l.project_id = p.id AND ${LIVE('l')}), '[]')::text AS json
   FROM (${CALLERS_PROJECT}) p`,
);

const REVOKE = sqlStatement<ProjectScope & { linkId: string }, { revoked: boolean }>(
  'links.revoke',
  `WITH project AS (${CALLERS_PROJECT}),
   revoked AS (DELETE FROM share_links l USING project p
     WHERE l.project_id = p.id AND l.id = $linkId::uuid RETURNING l.id)
   SELECT EXISTS (SELECT 1 FROM revoked) AS revoked FROM project p`,
);

/** A link's lookup at each open: its project, revision, and the project's owner. */
const OPEN = checkStatement<
  { tokenHash: string; kept: number },
  { id: string; project_id: string; revision: number; owner_id: string }
>(
  'links.open',
  `SELECT l.id, l.project_id, l.revision, p.owner_id
   FROM share_links l
   JOIN projects p ON p.id = l.project_id
   JOIN accounts a ON a.id = p.owner_id AND a.deleted_at IS NULL
   WHERE l.token_hash = $tokenHash AND ${LIVE('l')}
     AND EXISTS (SELECT 1 FROM revisions h WHERE h.project_id = l.project_id
       AND h.revision = l.revision AND h.revision > p.revision - $kept::int)`,
);

const ADD_VIEWS = sqlStatement<
  { projectIds: string[]; ids: string[]; counts: number[]; times: string[] },
  never
>(
  'links.add-views',
  `UPDATE share_links l
   SET views = l.views + v.n,
     last_viewed_at = GREATEST(l.last_viewed_at, v.at)
   FROM unnest($projectIds::uuid[], $ids::uuid[], $counts::int[], $times::timestamptz[])
     AS v(project_id, id, n, at)
   WHERE l.project_id = v.project_id AND l.id = v.id`,
);

/** A link, found by its token: what its page shows. */
export interface OpenedLink {
  readonly id: string;
  readonly projectId: string;
  readonly ownerId: string;
  readonly revision: number;
}

/** Views of links counted by one instance, not yet added to their rows. */
export interface ViewCounts {
  readonly projectIds: string[];
  readonly ids: string[];
  readonly counts: number[];
  /** The last view of each, ISO 8601. */
  readonly times: string[];
}

@Injectable()
export class LinksRepository {
  /** A new link, behind the project's lock (see LOCK): both statements in the round. */
  create(round: Round, params: CreateParams) {
    round.row(LOCK, { accountId: params.accountId, projectId: params.projectId });
    return round.row(CREATE, params) as Pending<
      { member: boolean; kept: boolean; live: number; json: string | null } | undefined
    >;
  }

  /** The project's live links, newest first; undefined when the caller is not a member. */
  list(db: SqlSession, scope: ProjectScope) {
    return db.row(LIST, scope);
  }

  /** Deletes the link; undefined when the caller is not a member of the project. */
  revoke(db: SqlSession, scope: ProjectScope, linkId: string) {
    return db.row(REVOKE, { ...scope, linkId });
  }

  async open(db: SqlSession, tokenHash: string, kept: number): Promise<OpenedLink | undefined> {
    const row = await db.check(OPEN, { tokenHash, kept });
    return (
      row && {
        id: row.id,
        projectId: row.project_id,
        ownerId: row.owner_id,
        revision: row.revision,
      }
    );
  }

  async addViews(db: SqlSession, views: ViewCounts): Promise<void> {
    await db.rows(ADD_VIEWS, { ...views });
  }
}
