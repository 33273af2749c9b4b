import autocannon from 'autocannon';
import { type Client } from 'pg';
import { interrupted } from './cleanup';
import { call, expectCall, idOf } from './http';
import { sampleUsage } from './proc-stats';
import { type ServerProcess } from './processes';
import { type Targets } from './targets';
import { type LoadSettings } from './tree-reads';
import { createWriteProject } from './write-project';

// The history of CONTRACT.md part two ("History and undo"), measured on the service alone (the
// yardstick keeps no history): what one revision stores (`history-bytes`), and the time to read
// a past state and to restore one beside the current read (`history-reads`).

/**
 * Writes of each kind whose storage is measured (bytes are averaged over them), after writes of
 * the same kind not measured: a pass over the updated contents (each index leaf and heap page
 * the series touches takes its first new entries, and splits, before), two moves.
 */
export const UPDATE_REPETITIONS = 400;
export const MOVE_REPETITIONS = 200;
/** Contents the updates take in turn, in either project: the small one's all. */
const UPDATED_CONTENTS = 90;
/** The large project: 10 blocks × 2 rows × 5 columns (size 2) × 20 texts = 2 000 contents. */
export const LARGE_SHAPE = { blocks: 10, rows: 2, columns: 5, contents: 20 } as const;
/**
 * Content updates made on the copy of a read project before its history is read: as many past
 * states to read once each, less two.
 */
export const HISTORY_UPDATES = 40;
/** Lone requests of each kind (current read, past read; restores), after a warm-up of 10. */
export const LONE_READS = 200;
export const RESTORES = 100;

/** The n-th update's text: ~300 characters, as the seed's, each different, all the same length. */
const textOf = (n: number) =>
  `<p>${'A revised paragraph of the proposal. '.repeat(8)}(revision ${String(n).padStart(7, '0')})</p>`;

export interface StoredPerRevision {
  /** What was done, UPDATE_REPETITIONS or MOVE_REPETITIONS times, one revision each. */
  case: 'update-90' | 'update-2000' | 'move-column';
  /** Contents of the project it was done in. */
  contents: number;
  revisions: number;
  /** New `node_versions` rows per revision (from_revision = that revision). */
  versionRows: number;
  /** pg_column_size of those rows and of the `revisions` row, per revision. */
  versionBytes: number;
  revisionBytes: number;
  /**
   * Growth of `node_versions` + `revisions` (pg_total_relation_size: heap, TOAST, indexes) per
   * revision, from a VACUUM FULL right before the series: the dead copy of each version a
   * write closes included.
   */
  diskBytes: number;
  /** Of which the indexes. */
  indexBytes: number;
  /** The writes' own latency (one at a time), ms. */
  writeP50: number;
  writeP99: number;
}

export interface HistoryBytesResult {
  /** Seconds to build both projects through the API. */
  buildSeconds: number;
  cases: StoredPerRevision[];
}

export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
  /** Answers other than the expected status. */
  failures: number;
}

export interface LoadedRead {
  rps: number;
  p50: number;
  p99: number;
  non200: number;
  errors: number;
}

export interface HistoryReadsResult {
  /** The read project copied (the seed's shape), its bytes as `GET /projects/<id>`. */
  bytes: number;
  /** The copy's revision when read, and the past revision read. */
  current: number;
  past: number;
  /**
   * One request at a time, current and past in turn; then each other past state of the
   * updates once, its first read (built, where the others are served again as kept), each
   * right after a read of the current state (`currentBesideFirst`).
   */
  lone: {
    current: LatencySummary;
    past: LatencySummary;
    pastFirst: LatencySummary;
    /** Absent from the raw numbers of runs before 2026-11-27-0955: those compare with `current`. */
    currentBesideFirst?: LatencySummary;
  };
  /** Under load (autocannon, the bench's connections), slices taken in turn. */
  loaded: { connections: number; seconds: number; current: LoadedRead; past: LoadedRead };
  /** Restores one at a time, with If-Match, alternately to two revisions one update apart. */
  restore: LatencySummary & { revisions: [number, number] };
  /** The service's peak RSS over the whole scenario. */
  rssMB: number | null;
}

interface ContentRef {
  path: string;
}

const ms = (t0: number) => performance.now() - t0;

export function summarize(samples: number[], failures = 0): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted.length === 0
      ? NaN
      : sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  const round = (v: number) => Math.round(v * 10) / 10;
  return {
    count: samples.length,
    p50: round(at(0.5)),
    p99: round(at(0.99)),
    max: round(sorted.at(-1) ?? NaN),
    failures,
  };
}

/** A write that must answer 200; the revision it made (its answer's `Project-Revision`). */
export async function write200(
  url: string,
  token: string,
  method: 'PUT' | 'POST',
  path: string,
  body: object,
): Promise<number> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  const revision = Number(response.headers.get('project-revision'));
  if (!Number.isInteger(revision) || revision <= 0) {
    throw new Error(`${method} ${path}: no Project-Revision in its answer`);
  }
  return revision;
}

/** A content's text replaced by the n-th update's. */
export const updateContent = (url: string, token: string, content: ContentRef, n: number) =>
  write200(url, token, 'PUT', content.path, { type: 'text', data: { html: textOf(n) } });

/** Every content's path in a project's document (`GET /projects/<id>`). */
export function contentsOf(project: ProjectDocument): ContentRef[] {
  const refs: ContentRef[] = [];
  for (const block of project.blocks) {
    for (const row of block.rows) {
      for (const column of row.columns) {
        for (const content of column.contents) {
          refs.push({
            path:
              `/projects/${project._id}/blocks/${block._id}/rows/${row._id}` +
              `/columns/${column._id}/contents/${content._id}`,
          });
        }
      }
    }
  }
  return refs;
}

export interface ProjectDocument {
  _id: string;
  revision: number;
  blocks: {
    _id: string;
    rows: { _id: string; columns: { _id: string; contents: { _id: string }[] }[] }[];
  }[];
}

async function readProject(url: string, token: string, project: string) {
  const reply = await expectCall(200, url, 'GET', `/projects/${project}`, { token });
  return reply.body as ProjectDocument;
}

/** The bytes of both history tables, with their TOAST and indexes. */
async function historyDisk(db: Client) {
  const { rows } = await db.query<{ total: string; indexes: string }>(
    `SELECT (pg_total_relation_size('node_versions') + pg_total_relation_size('revisions'))::text AS total,
       (pg_indexes_size('node_versions') + pg_indexes_size('revisions'))::text AS indexes`,
  );
  return { total: Number(rows[0].total), indexes: Number(rows[0].indexes) };
}

/** What revisions (after, upTo] of a project stored, row by row. */
async function storedRows(db: Client, project: string, after: number, upTo: number) {
  const { rows } = await db.query<{
    version_rows: number;
    version_bytes: string;
    revision_bytes: string;
  }>(
    `SELECT
       (SELECT count(*)::int FROM node_versions v
         WHERE v.project_id = $1 AND v.from_revision > $2 AND v.from_revision <= $3) AS version_rows,
       (SELECT COALESCE(sum(pg_column_size(v.*)), 0)::text FROM node_versions v
         WHERE v.project_id = $1 AND v.from_revision > $2 AND v.from_revision <= $3) AS version_bytes,
       (SELECT COALESCE(sum(pg_column_size(r.*)), 0)::text FROM revisions r
         WHERE r.project_id = $1 AND r.revision > $2 AND r.revision <= $3) AS revision_bytes`,
    [project, after, upTo],
  );
  return {
    versionRows: rows[0].version_rows,
    versionBytes: Number(rows[0].version_bytes),
    revisionBytes: Number(rows[0].revision_bytes),
  };
}

/**
 * Runs `write` `prime` times, then `repetitions` times, one at a time (each returns the revision
 * it made), and measures what the last `repetitions` revisions added to the history tables:
 * their rows, and the tables' growth.
 */
async function measureStored(
  db: Client,
  project: string,
  contents: number,
  label: StoredPerRevision['case'],
  write: (n: number) => Promise<number>,
  counts: { prime: number; repetitions: number },
): Promise<StoredPerRevision> {
  let last = 0;
  for (let n = 0; n < Math.max(1, counts.prime); n++) last = await write(n);
  const first = last;
  // Every series from the same state: no dead rows left by what ran before it (nor an
  // autovacuum of them falling into it), and no free space in the tables' pages, which would
  // take a series' rows without growing them (a plain VACUUM left some: 0 B per revision).
  await db.query('VACUUM FULL node_versions, revisions');
  const before = await historyDisk(db);
  const latencies: number[] = [];
  for (let n = counts.prime; n < counts.prime + counts.repetitions; n++) {
    const t0 = performance.now();
    const revision = await write(n);
    latencies.push(ms(t0));
    if (revision !== last + 1) {
      throw new Error(
        `${label}: revision ${revision} after ${last}: another writer in the project?`,
      );
    }
    last = revision;
  }
  if (interrupted()) throw new Error('interrupted');
  const after = await historyDisk(db);
  const rows = await storedRows(db, project, first, last);
  const revisions = last - first;
  const latency = summarize(latencies);
  return {
    case: label,
    contents,
    revisions,
    versionRows: rows.versionRows / revisions,
    versionBytes: rows.versionBytes / revisions,
    revisionBytes: rows.revisionBytes / revisions,
    diskBytes: (after.total - before.total) / revisions,
    indexBytes: (after.indexes - before.indexes) / revisions,
    writeP50: latency.p50,
    writeP99: latency.p99,
  };
}

/**
 * A project of LARGE_SHAPE through the API, each column created with its contents (~300
 * characters of text each, as the seed's), like seed.mjs --api builds its projects.
 */
async function buildLargeProject(url: string, token: string) {
  const post = async (path: string, body: object) =>
    idOf(await expectCall(201, url, 'POST', path, { token, body }));
  // The title of the seed's write project: every revision's row carries it.
  const project = await post('/projects', { title: 'Writes' });
  const rows: string[] = [];
  for (let b = 0; b < LARGE_SHAPE.blocks; b++) {
    const block = `/projects/${project}/blocks/${await post(`/projects/${project}/blocks`, { description: `b${b}` })}`;
    for (let r = 0; r < LARGE_SHAPE.rows; r++) {
      const row = `${block}/rows/${await post(`${block}/rows`, { description: '' })}`;
      rows.push(row);
      for (let c = 0; c < LARGE_SHAPE.columns; c++) {
        const contents = Array.from({ length: LARGE_SHAPE.contents }, (_, i) => ({
          type: 'text',
          data: {
            html: textOf(
              1_000_000 + ((b * LARGE_SHAPE.rows + r) * LARGE_SHAPE.columns + c) * 100 + i,
            ),
          },
        }));
        await post(`${row}/columns`, { size: 2, contents });
      }
    }
  }
  return { project, rows };
}

/**
 * `history-bytes`: on the service's database, what one revision stores. A project of the
 * seed's shape (90 contents) and one of LARGE_SHAPE (2 000 contents), both built through the
 * API; in each, one-content updates (each a new text of the same length) of 90 of its contents
 * in the same turn (the large project's spread over it: so that the series differ by the
 * project's size alone), a pass over them not measured, then UPDATE_REPETITIONS measured; in
 * the large one also MOVE_REPETITIONS moves of a column of 20 contents between the first two
 * rows, back and forth (after two not measured). Each series is measured by the rows its
 * revisions added (`node_versions` from that revision, the `revisions` row; pg_column_size) and
 * by the growth of both tables with their indexes, from a VACUUM FULL of both just before it. The
 * projects are deleted afterwards.
 */
export async function measureHistoryBytes(
  server: ServerProcess,
  token: string,
  db: Client,
  log: (message: string) => void,
): Promise<HistoryBytesResult> {
  const { url } = server;
  const t0 = performance.now();
  const small = (await createWriteProject(url, token)).project;
  const large = await buildLargeProject(url, token);
  const buildSeconds = ms(t0) / 1000;
  log(`  built a 90-content and a 2 000-content project in ${buildSeconds.toFixed(1)} s`);
  const cases: StoredPerRevision[] = [];
  for (const [project, contents] of [
    [small, 90],
    [large.project, 2000],
  ] as const) {
    const all = contentsOf(await readProject(url, token, project));
    if (all.length !== contents) throw new Error(`${all.length} contents, expected ${contents}`);
    // The same series in both: 90 contents (in the large project, spread over it), each taken
    // in the same order, so that only the project's size differs.
    const refs = Array.from(
      { length: UPDATED_CONTENTS },
      (_, i) => all[Math.floor((i * all.length) / UPDATED_CONTENTS)],
    );
    const label = contents === 90 ? 'update-90' : 'update-2000';
    cases.push(
      await measureStored(
        db,
        project,
        contents,
        label,
        (n) => updateContent(url, token, refs[(n * 7) % refs.length], n),
        { prime: UPDATED_CONTENTS, repetitions: UPDATE_REPETITIONS },
      ),
    );
  }
  // A column of 20 contents moved from the first row to the second and back (both of width 10
  // of 12: the one it leaves keeps room for it to come back).
  const document = await readProject(url, token, large.project);
  const rowIds = document.blocks[0].rows.map((row) => row._id);
  const column = document.blocks[0].rows[0].columns[0]._id;
  let at = 0;
  cases.push(
    await measureStored(
      db,
      large.project,
      2000,
      'move-column',
      async () => {
        const to = 1 - at;
        const revision = await write200(
          url,
          token,
          'POST',
          `${large.rows[at]}/columns/${column}/move`,
          {
            rowId: rowIds[to],
          },
        );
        at = to;
        return revision;
      },
      { prime: 2, repetitions: MOVE_REPETITIONS },
    ),
  );
  for (const project of [small, large.project]) {
    await call(url, 'DELETE', `/projects/${project}`, { token });
  }
  for (const c of cases) {
    log(
      `  ${c.case}: ${c.versionRows.toFixed(2)} version rows, ${Math.round(c.versionBytes + c.revisionBytes)} B of rows, ` +
        `${Math.round(c.diskBytes)} B on disk per revision`,
    );
  }
  return { buildSeconds, cases };
}

/** One GET, timed from request to the end of its body; its status. */
async function timedGet(url: string, path: string, token: string) {
  const t0 = performance.now();
  const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const body = await response.arrayBuffer();
  return {
    ms: ms(t0),
    status: response.status,
    bytes: body.byteLength,
    etag: response.headers.get('etag'),
  };
}

async function loadedRead(
  url: string,
  token: string,
  path: string,
  connections: number,
  seconds: number,
): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections,
    duration: seconds,
    timeout: 10,
    headers: { authorization: `Bearer ${token}` },
    requests: [{ method: 'GET', path }],
  });
}

/** Slices of the same read, averaged as measure.ts combines load.mjs's: rates, worst p50/p99. */
function combine(results: autocannon.Result[], seconds: number[]): LoadedRead {
  const total = seconds.reduce((a, b) => a + b, 0);
  const answered = (r: autocannon.Result) =>
    Object.values(r.statusCodeStats).reduce((sum, s) => sum + s.count, 0);
  return {
    rps: Math.round(
      results.reduce(
        (sum, r, i) => sum + (r.requests.total / (r.duration || seconds[i])) * seconds[i],
        0,
      ) / total,
    ),
    p50: Math.max(...results.map((r) => r.latency.p50)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    non200: results.reduce(
      (sum, r) => sum + answered(r) - (r.statusCodeStats['200']?.count ?? 0),
      0,
    ),
    errors: results.reduce((sum, r) => sum + r.errors + r.timeouts, 0),
  };
}

/**
 * `history-reads`: a copy of the first read project (`POST /projects/<id>/duplicate`: the
 * seed's 90 contents, at revision 1), then HISTORY_UPDATES one-content updates on it, so that
 * its recent past states are as large as its current one. Then, on the copy:
 * - `GET /projects/<copy>` and `GET /projects/<copy>/revisions/<n>` (n: HISTORY_UPDATES / 2
 *   updates back), one request at a time, in turn, LONE_READS of each after 10 of each not
 *   counted; then every other past state of the updates once (its first read, which builds
 *   it), each right after a current read; then the current and the past read under load
 *   (autocannon, the bench's connections), two slices of each in turn after a warm-up of each;
 * - RESTORES restores one at a time, alternately to the revision before the last update and to
 *   the last (each changes one content), each with `If-Match` of the previous answer's ETag as
 *   an undo sends it, after 10 not counted.
 * The copy is deleted afterwards.
 */
export async function measureHistoryReads(
  server: ServerProcess,
  targets: Targets,
  settings: LoadSettings,
  dbpid: number | undefined,
  log: (message: string) => void,
): Promise<HistoryReadsResult> {
  const { url } = server;
  const { token } = targets;
  const usage = sampleUsage(server.pid, dbpid);
  const started = performance.now();
  const copied = await expectCall(201, url, 'POST', `/projects/${targets.projects[0]}/duplicate`, {
    token,
    body: {},
  });
  const copy = idOf(copied);
  const refs = contentsOf(await readProject(url, token, copy));
  let current = 0;
  for (let n = 0; n < HISTORY_UPDATES; n++) {
    current = await updateContent(url, token, refs[(n * 7) % refs.length], n);
  }
  const past = current - HISTORY_UPDATES / 2;
  const paths = { current: `/projects/${copy}`, past: `/projects/${copy}/revisions/${past}` };

  // One at a time, in turn.
  const lone = { current: [] as number[], past: [] as number[] };
  const failed = { current: 0, past: 0 };
  let bytes = 0;
  for (let i = 0; i < LONE_READS + 10; i++) {
    for (const kind of i % 2 === 0
      ? (['current', 'past'] as const)
      : (['past', 'current'] as const)) {
      const read = await timedGet(url, paths[kind], token);
      if (read.status !== 200) failed[kind]++;
      if (kind === 'current') bytes = read.bytes;
      if (i >= 10) lone[kind].push(read.ms);
    }
  }
  // The first read of a past state builds it; every later one serves what this built. Each
  // comes right after a read of the current state, which it is compared with, so that a drift
  // of the machine's speed meets both series alike.
  const firstReads: number[] = [];
  const besideFirst: number[] = [];
  let firstFailed = 0;
  let besideFailed = 0;
  for (let revision = current - HISTORY_UPDATES + 1; revision < current; revision++) {
    if (revision === past) continue;
    const now = await timedGet(url, paths.current, token);
    if (now.status === 200) besideFirst.push(now.ms);
    else besideFailed++;
    const read = await timedGet(url, `/projects/${copy}/revisions/${revision}`, token);
    if (read.status === 200) firstReads.push(read.ms);
    else firstFailed++;
  }
  const loneResult = {
    current: summarize(lone.current, failed.current),
    past: summarize(lone.past, failed.past),
    pastFirst: summarize(firstReads, firstFailed),
    currentBesideFirst: summarize(besideFirst, besideFailed),
  };
  log(
    `  one at a time: current p50 ${loneResult.current.p50} ms, past p50 ${loneResult.past.p50} ms, ` +
      `a past state's first read p50 ${loneResult.pastFirst.p50} ms (current beside it ` +
      `${loneResult.currentBesideFirst.p50} ms)`,
  );

  // Under load: a warm-up of each, then two slices of each in turn.
  const { connections, warmup } = settings;
  const slice = Math.max(1, settings.duration / 4);
  const runs = { current: [] as autocannon.Result[], past: [] as autocannon.Result[] };
  if (warmup > 0) {
    for (const kind of ['current', 'past'] as const) {
      await loadedRead(url, token, paths[kind], connections, warmup);
    }
  }
  for (let s = 0; s < 2; s++) {
    for (const kind of ['current', 'past'] as const) {
      runs[kind].push(await loadedRead(url, token, paths[kind], connections, slice));
      if (interrupted()) throw new Error('interrupted');
    }
  }
  const loaded = {
    connections,
    seconds: 2 * slice,
    current: combine(runs.current, [slice, slice]),
    past: combine(runs.past, [slice, slice]),
  };
  log(`  under load: current ${loaded.current.rps} req/s, past ${loaded.past.rps} req/s`);

  // Restores, as undo and redo of the last update.
  const revisions: [number, number] = [current - 1, current];
  let etag = (await timedGet(url, paths.current, token)).etag;
  const restores: number[] = [];
  let restoreFailures = 0;
  for (let i = 0; i < RESTORES + 10; i++) {
    const target = revisions[i % 2];
    const t0 = performance.now();
    const response = await fetch(`${url}/projects/${copy}/revisions/${target}/restore`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...(etag ? { 'if-match': etag } : {}) },
    });
    await response.arrayBuffer();
    const took = ms(t0);
    etag = response.headers.get('etag');
    if (response.status !== 200) {
      restoreFailures++;
      etag = (await timedGet(url, paths.current, token)).etag;
    }
    if (i >= 10) restores.push(took);
  }
  const restore = { ...summarize(restores, restoreFailures), revisions };
  log(`  restore: p50 ${restore.p50} ms, p99 ${restore.p99} ms, ${restoreFailures} not 200`);
  await call(url, 'DELETE', `/projects/${copy}`, { token });
  const used = usage(ms(started) / 1000);
  return { bytes, current, past, lone: loneResult, loaded, restore, rssMB: used.rssMB };
}
