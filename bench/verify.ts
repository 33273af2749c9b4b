import { CREATE_BODIES } from './fixtures';
import { call, idOf, type Reply } from './http';
import { RESIZE_SIZES } from './scenarios';
import { type Fixture, SHAPE } from './seed';

/**
 * Before anything is measured: every request the scenarios make, once against each server, and
 * the answers compared (status, JSON body member by member, Location, the 401 challenge), so
 * that the two are known to do the same work. Throws on the first difference. Leaves the data
 * as it found it.
 */
export async function verifyEquivalence(
  service: string,
  baseline: string,
  fixture: Fixture,
): Promise<number> {
  let checks = 0;
  const same = async (
    label: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    options: { token?: string; body?: unknown } = {},
    ignoreNewId = false,
  ): Promise<[Reply, Reply]> => {
    const a = await call(service, method, path, options);
    const b = await call(baseline, method, path, options);
    compareReplies(`${label}: ${method} ${path}`, a, b, ignoreNewId);
    checks++;
    return [a, b];
  };

  // (a)–(c): every project, every row's columns, every content.
  for (const account of fixture.accounts) {
    const { token } = account;
    await same('project', 'GET', account.projectPath, { token });
    for (const row of account.rows) await same('columns', 'GET', `${row.path}/columns`, { token });
    for (const path of account.contentPaths) await same('content', 'GET', path, { token });
  }

  // The same auth and ownership checks.
  const [first, second] = fixture.accounts;
  const challenge = await same('no token', 'GET', first.projectPath);
  expectStatus(challenge, 401);
  if (!challenge.every((reply) => reply.wwwAuthenticate?.startsWith('Bearer'))) {
    throw new Error('a 401 without a WWW-Authenticate: Bearer challenge');
  }
  expectStatus(
    await same('unknown token', 'GET', first.projectPath, { token: 'x'.repeat(43) }),
    401,
  );
  if (second) {
    const token = second.token;
    expectStatus(await same("another's project", 'GET', first.projectPath, { token }), 404);
    expectStatus(await same("another's content", 'GET', first.contentPaths[0], { token }), 404);
  }
  expectStatus(
    await same('malformed id', 'GET', '/projects/not-a-uuid', { token: first.token }),
    404,
  );

  // (d): each body once on each server; each server must read back what the other stored.
  const column = first.columns[0];
  for (const body of CREATE_BODIES) {
    const [fromService, fromBaseline] = await same(
      'create',
      'POST',
      `${column.path}/contents`,
      { token: first.token, body },
      true,
    );
    expectStatus([fromService, fromBaseline], 201);
    const created = [fromService, fromBaseline].map((reply) => {
      const path = `${column.path}/contents/${idOf(reply)}`;
      if (reply.location !== path)
        throw new Error(`create: Location ${reply.location}, expected ${path}`);
      return path;
    });
    const readBack = [
      await call(baseline, 'GET', created[0], { token: first.token }),
      await call(service, 'GET', created[1], { token: first.token }),
    ];
    expectStatus(readBack, 200);
    compareBodies('the baseline reading what the service created', fromService, readBack[0], false);
    compareBodies(
      'the service reading what the baseline created',
      fromBaseline,
      readBack[1],
      false,
    );
    // Both new contents sit at the end of the column, in order.
    await same('columns after create', 'GET', `${first.rows[0].path}/columns`, {
      token: first.token,
    });
    for (const [index, url] of [service, baseline].entries()) {
      const gone = await call(url, 'DELETE', created[index], { token: first.token });
      if (gone.status !== 204) throw new Error(`delete ${created[index]}: ${gone.status}`);
    }
    expectStatus(await same('deleted', 'GET', created[0], { token: first.token }), 404);
    checks += 3;
  }
  const invalid = [
    { type: 'text', data: { html: 5 } },
    { type: 'image', data: { url: 'ftp://example.com/a.png' } },
    { type: 'text', colour: 'red' },
    { type: 'banner' },
  ];
  for (const body of invalid) {
    const replies = await same('invalid body', 'POST', `${column.path}/contents`, {
      token: first.token,
      body,
    });
    expectStatus(replies, 400);
  }

  // (e): both sizes, as a number and as the string form responses render; then a refusal.
  const token = first.token;
  for (const size of [RESIZE_SIZES[0], String(RESIZE_SIZES[1])]) {
    expectStatus(await same('resize', 'PUT', column.path, { token, body: { size } }), 200);
  }
  const refused = await same('resize past 12', 'PUT', column.path, { token, body: { size: 12 } });
  expectStatus(refused, 409);
  const available = refused.map(
    (reply) => (reply.body as { availableSize?: unknown }).availableSize,
  );
  const expected = 12 - SHAPE.size * (SHAPE.columnsPerRow - 1);
  if (available[0] !== expected || available[1] !== expected) {
    throw new Error(`availableSize ${JSON.stringify(available)}, expected ${expected}`);
  }
  return checks;
}

function expectStatus(replies: Reply[], status: number) {
  for (const reply of replies) {
    if (reply.status !== status) {
      throw new Error(`expected ${status}, got ${reply.status}: ${JSON.stringify(reply.body)}`);
    }
  }
}

/**
 * Error bodies are only compared by status and problem type (their wording is free); success
 * bodies member by member, lists in order.
 */
function compareReplies(label: string, a: Reply, b: Reply, ignoreNewId: boolean) {
  if (a.status !== b.status) {
    throw new Error(
      `${label}: status ${a.status} (service) vs ${b.status} (baseline)\n` +
        `service: ${JSON.stringify(a.body)}\nbaseline: ${JSON.stringify(b.body)}`,
    );
  }
  if (a.status >= 400) {
    const kind = (reply: Reply) => (reply.body as { type?: unknown } | undefined)?.type;
    if (kind(a) !== kind(b)) {
      throw new Error(`${label}: problem ${String(kind(a))} vs ${String(kind(b))}`);
    }
    return;
  }
  compareBodies(label, a, b, ignoreNewId);
}

function compareBodies(label: string, a: Reply, b: Reply, ignoreNewId: boolean) {
  if (a.body !== undefined && !a.contentType?.startsWith('application/json')) {
    throw new Error(`${label}: service content type ${a.contentType}`);
  }
  if (b.body !== undefined && !b.contentType?.startsWith('application/json')) {
    throw new Error(`${label}: baseline content type ${b.contentType}`);
  }
  const difference = firstDifference(a.body, b.body, '', ignoreNewId);
  if (difference !== undefined) {
    throw new Error(`${label}: the answers differ at ${difference}`);
  }
}

/** JSON pointer and values of the first difference, or undefined when equal. */
function firstDifference(
  a: unknown,
  b: unknown,
  at: string,
  ignoreTopId: boolean,
): string | undefined {
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) return `${at || '/'}: array vs non-array`;
    if (a.length !== b.length) return `${at || '/'}: ${a.length} vs ${b.length} items`;
    for (let i = 0; i < a.length; i++) {
      const found = firstDifference(a[i], b[i], `${at}/${i}`, false);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      if (ignoreTopId && key === '_id') continue;
      if (!(key in a) || !(key in b)) return `${at}/${key}: present on one side only`;
      const found = firstDifference(a[key], b[key], `${at}/${key}`, false);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return Object.is(a, b) ? undefined : `${at || '/'}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
