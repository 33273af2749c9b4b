import type autocannon from 'autocannon';
import { CREATE_BODIES } from './fixtures';
import { type Fixture, type SeededAccount, SHAPE } from './seed';

export type ScenarioKey =
  'project' | 'columns' | 'content' | 'create' | 'resize' | 'mixed' | 'health' | 'me';

export interface Scenario {
  key: ScenarioKey;
  label: string;
  /** Whether it changes data, so that the run resets the seeded projects afterwards. */
  writes: boolean;
  /** A fresh request list (its counters start over) for one autocannon run. */
  requests(): autocannon.Request[];
}

interface Target {
  token: string;
  path: string;
}

/** The two sizes scenario (e) alternates between: with 3 columns of 4, any mix of them fits. */
export const RESIZE_SIZES = [3, SHAPE.size] as const;

export function mainScenarios(fixture: Fixture): Scenario[] {
  const { accounts } = fixture;
  return [
    readScenario('project', '(a) read a whole project', projectTargets(accounts)),
    readScenario('columns', '(b) list the columns of a row', rowColumnsTargets(accounts)),
    readScenario('content', '(c) retrieve one content', contentTargets(accounts)),
    {
      key: 'create',
      label: '(d) create a content',
      writes: true,
      requests: () => {
        const targets = columnTargets(accounts);
        let next = 0;
        return [each(() => createContent(targets[next % targets.length], next++))];
      },
    },
    {
      key: 'resize',
      label: "(e) update a column's size",
      writes: true,
      requests: () => {
        const targets = columnTargets(accounts);
        let next = 0;
        return [each(() => resizeColumn(targets[next++ % targets.length]))];
      },
    },
    {
      key: 'mixed',
      label: '(f) editor session, 80 % reads / 20 % writes',
      writes: true,
      requests: () => editorSession(accounts),
    },
  ];
}

/** Only the reads (a)–(c): what the growth runs repeat. */
export function readScenarios(fixture: Fixture): Scenario[] {
  return mainScenarios(fixture).filter((scenario) => !scenario.writes);
}

/** The floors the time goes on top of: the framework alone, and the framework plus the token. */
export function diagnosticScenarios(fixture: Fixture): Scenario[] {
  const tokens = fixture.accounts.map((account) => account.token);
  return [
    {
      key: 'health',
      label: 'GET /health/live (no token, no SQL)',
      writes: false,
      requests: () => [each(() => ({ method: 'GET', path: '/health/live', headers: {} }))],
    },
    {
      key: 'me',
      label: 'GET /accounts/auth/me (token lookup only)',
      writes: false,
      requests: () => {
        let next = 0;
        return [
          each(() => get({ token: tokens[next++ % tokens.length], path: '/accounts/auth/me' })),
        ];
      },
    },
  ];
}

function readScenario(key: ScenarioKey, label: string, targets: Target[]): Scenario {
  return {
    key,
    label,
    writes: false,
    requests: () => {
      let next = 0;
      return [each(() => get(targets[next++ % targets.length]))];
    },
  };
}

/**
 * One request entry whose method, path and body are chosen anew for every request. Consecutive
 * requests (from different connections) go to different accounts, so writes do not all queue
 * for one row lock.
 */
function each(make: () => autocannon.Request): autocannon.Request {
  return { setupRequest: (request) => ({ ...request, ...make() }) };
}

// autocannon writes Content-Length into the headers object it is given: a fresh one each time.
function get(target: Target): autocannon.Request {
  return { method: 'GET', path: target.path, headers: auth(target.token) };
}

function createContent(column: Target, n: number): autocannon.Request {
  return {
    method: 'POST',
    path: `${column.path}/contents`,
    headers: { ...auth(column.token), 'content-type': 'application/json' },
    body: JSON.stringify(CREATE_BODIES[n % CREATE_BODIES.length]),
  };
}

const nextSizeOf = new Map<string, number>();

function resizeColumn(column: Target): autocannon.Request {
  const size = nextSizeOf.get(column.path) ?? RESIZE_SIZES[0];
  nextSizeOf.set(column.path, size === RESIZE_SIZES[0] ? RESIZE_SIZES[1] : RESIZE_SIZES[0]);
  return {
    method: 'PUT',
    path: column.path,
    headers: { ...auth(column.token), 'content-type': 'application/json' },
    body: JSON.stringify({ size }),
  };
}

function auth(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

interface Session {
  account: SeededAccount;
  /** Path of the content this pass created, which its last request deletes again. */
  created?: string;
}

/**
 * A connection's pass: 15 requests in one account's project, 12 reads (project, a row's
 * columns, a content, four times) and 3 writes (create a content, resize a column, delete the
 * content created), so 20 % writes and a project that does not grow during the run.
 */
function editorSession(accounts: SeededAccount[]): autocannon.Request[] {
  let nextAccount = 0;
  let creates = 0;
  const session = (context: autocannon.Context): Session => {
    context.session ??= { account: accounts[nextAccount++ % accounts.length] };
    return context.session as Session;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)];
  const reads = (): autocannon.Request[] => [
    step((s) => get({ token: s.account.token, path: s.account.projectPath })),
    step((s) => get({ token: s.account.token, path: `${pick(s.account.rows).path}/columns` })),
    step((s) => get({ token: s.account.token, path: pick(s.account.contentPaths) })),
  ];
  const step = (
    make: (s: Session) => autocannon.Request,
    onResponse?: autocannon.Request['onResponse'],
  ): autocannon.Request => ({
    setupRequest: (request, context) => ({ ...request, ...make(session(context)) }),
    onResponse,
  });

  return [
    ...reads(),
    step(
      (s) => {
        const column = pick(s.account.columns);
        return createContent({ token: s.account.token, path: column.path }, creates++);
      },
      (status, _body, context, headers) => {
        // The equivalence check has made sure both servers send Location with a 201.
        const location = headers.location ?? headers.Location;
        if (status === 201 && typeof location === 'string') session(context).created = location;
      },
    ),
    ...reads(),
    step((s) => resizeColumn({ token: s.account.token, path: pick(s.account.columns).path })),
    ...reads(),
    ...reads(),
    step((s) =>
      s.created === undefined
        ? // The create failed (already counted as a non-2xx): keep the pass going with a read.
          get({ token: s.account.token, path: s.account.projectPath })
        : { method: 'DELETE', path: s.created, headers: auth(s.account.token) },
    ),
  ];
}

function projectTargets(accounts: SeededAccount[]): Target[] {
  return accounts.map((account) => ({ token: account.token, path: account.projectPath }));
}

function rowColumnsTargets(accounts: SeededAccount[]): Target[] {
  return interleave(
    accounts.map((account) =>
      account.rows.map((row) => ({ token: account.token, path: `${row.path}/columns` })),
    ),
  );
}

function contentTargets(accounts: SeededAccount[]): Target[] {
  return interleave(
    accounts.map((account) => account.contentPaths.map((path) => ({ token: account.token, path }))),
  );
}

function columnTargets(accounts: SeededAccount[]): Target[] {
  return interleave(
    accounts.map((account) =>
      account.columns.map((column) => ({ token: account.token, path: column.path })),
    ),
  );
}

/** [[a1, a2], [b1, b2]] → [a1, b1, a2, b2]: neighbours belong to different accounts. */
function interleave<T>(lists: T[][]): T[] {
  const longest = Math.max(0, ...lists.map((list) => list.length));
  const out: T[] = [];
  for (let i = 0; i < longest; i++)
    for (const list of lists) if (i < list.length) out.push(list[i]);
  return out;
}
