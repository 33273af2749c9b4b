import * as fc from 'fast-check';
import { Agent } from 'node:http';
import { type AddressInfo } from 'node:net';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { startTestApp } from '../support/test-app';
import { describeOutcome, JsonClient, type Outcome, send } from './support/http';
import {
  BREAKS_OUT_OF_CSS_URL,
  CSS_BREAKOUT_URLS,
  DOCS_ESCAPES,
  FOREIGN_CHARSET_BODIES,
  INVALID_UTF8,
  jsonStringWithBytes,
  LEGITIMATE_URLS,
  UNSTORABLE_URLS,
  urlCandidate,
} from './support/encodings-and-urls';
import {
  CONTENT_ID,
  FOREIGN_CONTENT_ID,
  headerValue,
  type HostileRequest,
  hostileRequest,
  type IdChoice,
  LEVELS,
  type Level,
  pathOf,
  SELF_ID,
} from './support/hostile-input';

// Reproduce a failure with FC_SEED=<seed printed in the report>; FC_RUNS changes the number of
// generated requests (sized for about 30-60 s on a 2-core machine).
const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : 20_261_122;
const RUNS = process.env.FC_RUNS ? Number(process.env.FC_RUNS) : 600;
const TIME_LIMIT_MS = 240_000;
// Successful writes grow the tree; past this many, a fresh layout keeps snapshots small.
const REBUILD_AFTER_SUCCESSES = 15;

type Layout = Record<Level, string>;

describe(`hostile input to every operation (fast-check seed ${SEED}; FC_SEED=<n> to change)`, () => {
  let app: NestFastifyApplication;
  let port: number;
  let agent: Agent;
  let client: JsonClient;
  let owner: string;
  let stranger: string;
  let layout: Layout;
  let strangersLayout: Layout;
  let successesSinceRebuild = 0;

  async function buildLayout(token: string): Promise<Layout> {
    const project = await client.expect(201, 'POST', '/projects', { title: 'Fuzz' }, token);
    const p = `/projects/${project._id}`;
    const block = await client.expect(201, 'POST', `${p}/blocks`, { description: 'b' }, token);
    const b = `${p}/blocks/${block._id}`;
    const row = await client.expect(201, 'POST', `${b}/rows`, { description: 'r' }, token);
    const r = `${b}/rows/${row._id}`;
    const column = await client.expect(
      201,
      'POST',
      `${r}/columns`,
      { size: 4, contents: [{ type: 'text', data: { html: '<p>t</p>' } }, { type: 'empty' }] },
      token,
    );
    return {
      project: project._id,
      block: block._id,
      row: row._id,
      column: column._id,
      content: column.contents[0]._id,
    };
  }

  /** The owner's projects and the whole tree of the layout under test. */
  async function snapshot(): Promise<string> {
    const auth = { token: owner };
    const list = await client.call('GET', '/projects', undefined, auth.token);
    const tree = await client.call('GET', `/projects/${layout.project}`, undefined, auth.token);
    return JSON.stringify({ list: [list.status, list.body], tree: [tree.status, tree.body] });
  }

  async function rebuild() {
    await client.call('DELETE', `/projects/${layout.project}`, undefined, owner);
    layout = await buildLayout(owner);
    successesSinceRebuild = 0;
  }

  function resolveId(choice: IdChoice, slot: number): string {
    const level = LEVELS[slot];
    switch (choice.kind) {
      case 'real':
        return layout[level];
      case 'foreign':
        return strangersLayout[level];
      case 'other-level':
        return layout[LEVELS[(slot + 1) % LEVELS.length]];
      case 'upper-case':
        return layout[level].toUpperCase();
      case 'uuid':
      case 'wire':
        return choice.value;
    }
  }

  function resolve(request: HostileRequest) {
    const ids = request.ids.map(resolveId);
    const headers: Record<string, string> = {};
    for (const [name, value] of request.headers) headers[name] = value;
    switch (request.auth.kind) {
      case 'valid':
        headers.authorization = `Bearer ${owner}`;
        break;
      case 'foreign':
        headers.authorization = `Bearer ${stranger}`;
        break;
      case 'raw':
        headers.authorization = headerValue(request.auth.value);
        break;
      case 'none':
        break;
    }
    let body = request.body;
    if (typeof body === 'string') {
      body = body
        .replaceAll(SELF_ID, ids.at(-1) ?? layout.project)
        .replaceAll(FOREIGN_CONTENT_ID, strangersLayout.content)
        .replaceAll(CONTENT_ID, layout.content);
    }
    if (body !== undefined && request.contentType !== undefined) {
      headers['content-type'] = request.contentType;
    }
    const path = pathOf(request.operation, ids) + request.query;
    return { method: request.operation.method, path, headers, body };
  }

  beforeAll(async () => {
    app = await startTestApp({ RATE_LIMIT_ENABLED: 'false' });
    port = (app.getHttpServer().address() as AddressInfo).port;
    // Setup and snapshots keep their own connections, apart from the hostile requests, which
    // each get a new one: how one of them leaves its connection cannot affect another.
    agent = new Agent({ keepAlive: true, maxSockets: 2 });
    client = new JsonClient(port, agent);
    owner = (await client.newAccount('fuzz-owner')).token;
    stranger = (await client.newAccount('fuzz-stranger')).token;
    layout = await buildLayout(owner);
    strangersLayout = await buildLayout(stranger);
  }, 60_000);

  afterAll(async () => {
    agent?.destroy();
    await app?.close();
  }, 30_000);

  // ---------------------------------------------------------------------------------------
  // Targeted cases: each hostile write is checked like the generated ones (the owner's data is
  // fingerprinted before and after a refusal), with the exact answer the contract gives.

  const paths = () => {
    const project = `/projects/${layout.project}`;
    const block = `${project}/blocks/${layout.block}`;
    const column = `${block}/rows/${layout.row}/columns/${layout.column}`;
    return { project, block, column, contents: `${column}/contents` };
  };

  /** One write with the owner's token; a refused one must leave the owner's data as it was. */
  async function hostileWrite(
    method: string,
    path: string,
    body: string | Buffer,
    contentType = 'application/json',
  ): Promise<Extract<Outcome, { kind: 'answered' }>> {
    const before = await snapshot();
    const outcome = await send({
      port,
      method,
      path,
      headers: { authorization: `Bearer ${owner}`, 'content-type': contentType },
      body,
      timeoutMs: 20_000,
    });
    if (outcome.kind !== 'answered') {
      throw new Error(`no complete response: ${method} ${path} → ${describeOutcome(outcome)}`);
    }
    if (outcome.status >= 400) {
      expect(outcome.headers['content-type']).toMatch(/^application\/problem\+json/);
      const after = await snapshot();
      if (after !== before) {
        throw new Error(`a refused write changed the data: ${method} ${path}\n${after}`);
      }
    }
    return outcome;
  }

  const expectProblem = (outcome: { status: number; body: any }, status: number, type: string) =>
    expect({ status: outcome.status, type: outcome.body?.type }).toEqual({ status, type });

  describe('positions at and past the edges of what is accepted', () => {
    // 2^31 broke an int cast once (500); the contract takes 0 .. 2^53 - 1, past the end = the end.
    it.each([2 ** 31, 2 ** 32, Number.MAX_SAFE_INTEGER])(
      'takes position %d as "the end"',
      async (position) => {
        const { contents } = paths();
        const created = await hostileWrite(
          'POST',
          contents,
          JSON.stringify({ type: 'empty', position }),
        );
        expect(created.status).toBe(201);
        const moved = await hostileWrite(
          'PUT',
          `${contents}/${created.body._id}`,
          JSON.stringify({ type: 'empty', position }),
        );
        expect(moved.status).toBe(200);
        const block = await hostileWrite('PUT', paths().block, JSON.stringify({ position }));
        expect(block.status).toBe(200);
      },
    );

    it.each(['2 ** 53', '-1', '1.5', '"1"', '1e400', '-0.0000001'])(
      'refuses position %s with 400 and changes nothing',
      async (literal) => {
        const outcome = await hostileWrite(
          'POST',
          paths().contents,
          `{"type":"empty","position":${literal === '2 ** 53' ? String(2 ** 53) : literal}}`,
        );
        expectProblem(outcome, 400, '/problems/validation');
      },
    );
  });

  describe('bodies in another charset than UTF-8, or not in UTF-8', () => {
    it.each(FOREIGN_CHARSET_BODIES)(
      'answers a body declared as %s with 415 and changes nothing',
      async (_name, contentType, body) => {
        expectProblem(
          await hostileWrite('POST', '/projects', body, contentType),
          415,
          '/problems/unsupported-media-type',
        );
        const update = Buffer.from(
          body.toString('latin1').replace('title', 'description'),
          'latin1',
        );
        expectProblem(
          await hostileWrite('PUT', paths().block, update, contentType),
          415,
          '/problems/unsupported-media-type',
        );
      },
    );

    it.each(INVALID_UTF8)(
      'answers %s with 400 malformed-json and changes nothing',
      async (_name, bytes) => {
        for (const contentType of ['application/json', 'application/json; charset=utf-8']) {
          expectProblem(
            await hostileWrite(
              'POST',
              '/projects',
              jsonStringWithBytes('title', bytes),
              contentType,
            ),
            400,
            '/problems/malformed-json',
          );
          expectProblem(
            await hostileWrite(
              'PUT',
              paths().project,
              jsonStringWithBytes('title', bytes),
              contentType,
            ),
            400,
            '/problems/malformed-json',
          );
        }
      },
    );

    it('stores UTF-8 declared in any spelling exactly, U+FFFD and all', async () => {
      const title = 'Caf\u00e9 \ud83d\ude00 \ufffd \u2028';
      for (const contentType of [
        'application/json; charset="UTF-8"',
        'application/json;charset=utf-8',
        'application/json; charset=utf8',
      ]) {
        const created = await hostileWrite(
          'POST',
          '/projects',
          JSON.stringify({ title }),
          contentType,
        );
        expect({ status: created.status, title: created.body.title }).toEqual({
          status: 201,
          title,
        });
        await client.expect(204, 'DELETE', `/projects/${created.body._id}`, undefined, owner);
      }
    });

    it('drops a leading UTF-8 byte order mark', async () => {
      const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"title":"BOM"}')]);
      const created = await hostileWrite('POST', '/projects', body);
      expect({ status: created.status, title: created.body.title }).toEqual({
        status: 201,
        title: 'BOM',
      });
      await client.expect(204, 'DELETE', `/projects/${created.body._id}`, undefined, owner);
    });
  });

  describe('URLs that would break out of a CSS url()', () => {
    /** Every URL member of the owner's tree under test that is not safe in CSS as it is. */
    async function unsafeStoredUrls(): Promise<string[]> {
      const tree = await client.expect(200, 'GET', paths().project, undefined, owner);
      const found: string[] = [];
      const check = (where: string, value: unknown) => {
        if (value === undefined || value === '') return;
        if (typeof value !== 'string' || BREAKS_OUT_OF_CSS_URL.test(value)) {
          found.push(`${where}: ${JSON.stringify(value)}`);
          return;
        }
        const url = new URL(value); // throws (and fails the test) for anything but a URL
        if (url.protocol !== 'http:' && url.protocol !== 'https:') found.push(`${where}: ${value}`);
      };
      for (const block of tree.blocks) {
        check(`block ${block._id} style`, block.style.backgroundImage);
        for (const row of block.rows) {
          for (const column of row.columns) {
            for (const content of column.contents) {
              check(`content ${content._id} style`, content.style.backgroundImage);
              check(`content ${content._id} data`, content.data.url);
            }
          }
        }
      }
      return found;
    }

    /** The four URL members, each written through the operation that sets it. */
    const WRITES: ReadonlyArray<{
      member: string;
      pointer: string;
      write: (url: string) => [method: string, path: string, body: unknown];
      stored: (answer: any) => unknown;
    }> = [
      {
        member: "a content style's backgroundImage",
        pointer: '/style/backgroundImage',
        write: (url) => [
          'POST',
          paths().contents,
          { type: 'empty', style: { backgroundImage: url } },
        ],
        stored: (answer) => answer.style.backgroundImage,
      },
      {
        member: "a block style's backgroundImage",
        pointer: '/style/backgroundImage',
        write: (url) => ['PUT', paths().block, { style: { backgroundImage: url } }],
        stored: (answer) => answer.style.backgroundImage,
      },
      {
        member: "an image's url",
        pointer: '/data/url',
        write: (url) => ['POST', paths().contents, { type: 'image', data: { url } }],
        stored: (answer) => answer.data.url,
      },
      {
        member: "a video's url",
        pointer: '/data/url',
        write: (url) => ['POST', paths().contents, { type: 'video', data: { url } }],
        stored: (answer) => answer.data.url,
      },
      {
        member: "an image's url in a column's contents",
        pointer: '/contents/0/data/url',
        write: (url) => ['PUT', paths().column, { contents: [{ type: 'image', data: { url } }] }],
        stored: (answer) => answer.contents[0].data.url,
      },
    ];

    afterAll(() => rebuild());

    it.each(WRITES.map((write) => [write.member, write] as const))(
      'stores %s in a form no url() can be broken out of',
      async (_member, { write, stored }) => {
        for (const url of CSS_BREAKOUT_URLS) {
          const [method, path, body] = write(url);
          const answer = await hostileWrite(method, path, JSON.stringify(body));
          expect(answer.status).toBeLessThan(300);
          const value = stored(answer.body) as string;
          expect(value).not.toMatch(BREAKS_OUT_OF_CSS_URL);
          expect(new URL(value).host).toBe(new URL(url).host);
        }
        expect(await unsafeStoredUrls()).toEqual([]);
      },
    );

    it.each(WRITES.map((write) => [write.member, write] as const))(
      'keeps legitimate URLs working in %s, percent-encoded where needed',
      async (_member, { write, stored }) => {
        for (const [url, expected] of LEGITIMATE_URLS) {
          const [method, path, body] = write(url);
          const answer = await hostileWrite(method, path, JSON.stringify(body));
          expect({ status: answer.status < 300, stored: stored(answer.body) }).toEqual({
            status: true,
            stored: expected,
          });
        }
      },
    );

    it.each(WRITES.map((write) => [write.member, write] as const))(
      'refuses URLs in %s that have no safe form, with 400 and a pointer',
      async (_member, { write, pointer }) => {
        for (const url of UNSTORABLE_URLS) {
          const [method, path, body] = write(url);
          const answer = await hostileWrite(method, path, JSON.stringify(body));
          expectProblem(answer, 400, '/problems/validation');
          expect(answer.body.errors).toEqual([{ pointer, detail: expect.any(String) }]);
        }
      },
    );

    it('never stores a URL that breaks out of url(), whatever is sent (generated)', async () => {
      await fc.assert(
        fc.asyncProperty(fc.nat({ max: WRITES.length - 1 }), urlCandidate, async (index, url) => {
          const [method, path, body] = WRITES[index].write(url);
          const answer = await hostileWrite(method, path, JSON.stringify(body));
          if (answer.status >= 400) expectProblem(answer, 400, '/problems/validation');
          else expect(WRITES[index].stored(answer.body)).not.toMatch(BREAKS_OUT_OF_CSS_URL);
          expect(await unsafeStoredUrls()).toEqual([]);
        }),
        { seed: SEED, numRuns: 40 },
      );
    }, 120_000);
  });

  describe('paths out of the explorer at /docs', () => {
    it.each(DOCS_ESCAPES)('answers GET %s with 404 not-found and no file', async (path) => {
      for (const method of ['GET', 'HEAD']) {
        const outcome = await send({ port, method, path, timeoutMs: 20_000 });
        if (outcome.kind !== 'answered') throw new Error(`${path}: ${describeOutcome(outcome)}`);
        expect({ method, status: outcome.status }).toEqual({ method, status: 404 });
        expect(outcome.headers['content-type']).toMatch(/^application\/problem\+json/);
        if (method === 'GET') expect(outcome.body?.type).toBe('/problems/not-found');
        expect(outcome.text).not.toMatch(/"(name|version|dependencies)"\s*:|root:|swagger-ui-dist/);
      }
    });

    it('still serves the files the explorer page loads', async () => {
      for (const path of ['/docs', '/docs/swagger-ui.css', '/docs/swagger-ui-bundle.js']) {
        const outcome = await send({ port, method: 'GET', path, timeoutMs: 20_000 });
        expect({
          path,
          status: outcome.kind === 'answered' ? outcome.status : outcome.kind,
        }).toEqual({ path, status: 200 });
      }
    });
  });

  it(
    'never answers 5xx, answers every 4xx as problem+json, and a rejected write changes nothing',
    async () => {
      const property = fc.asyncProperty(hostileRequest, async (request) => {
        const { method, path, headers, body } = resolve(request);
        const writes = method !== 'GET';
        const before = writes ? await snapshot() : undefined;
        const outcome = await send({ port, method, path, headers, body, timeoutMs: 20_000 });
        const said = `${method} ${path.slice(0, 300)} → ${describeOutcome(outcome)}`;

        if (outcome.kind !== 'answered') throw new Error(`no complete response: ${said}`);
        if (outcome.status >= 500) throw new Error(`server error: ${said}`);
        if (outcome.status >= 400) {
          const problem = outcome.body;
          const isProblem =
            /^application\/problem\+json/.test(outcome.headers['content-type'] ?? '') &&
            typeof problem === 'object' &&
            problem !== null &&
            typeof problem.type === 'string' &&
            /^\/problems\/[a-z-]+$/.test(problem.type) &&
            typeof problem.title === 'string' &&
            problem.title.length > 0 &&
            problem.status === outcome.status;
          if (!isProblem) throw new Error(`not a problem+json with type/title/status: ${said}`);
          // (`instance` echoes the request's path, which is the client's own text.)
          const { instance: _echo, ...rest } = problem as Record<string, unknown>;
          if (
            /\bat .+:\d+:\d+|\.(ts|js):\d+|\bselect\b.+\bfrom\b|prisma|postgres/i.test(
              JSON.stringify(rest),
            )
          ) {
            throw new Error(`the problem gives internals away: ${said}`);
          }
        }
        if (!writes) return;
        if (outcome.status >= 400) {
          const after = await snapshot();
          if (after !== before) {
            throw new Error(
              `a rejected write changed the tree: ${said}\nbefore: ${before}\nafter:  ${after}`,
            );
          }
          return;
        }
        // Accepted: the tree changed on purpose; keep it whole and small for the next runs.
        successesSinceRebuild++;
        if (method === 'DELETE' || successesSinceRebuild >= REBUILD_AFTER_SUCCESSES) {
          await rebuild();
        }
      });
      await fc.assert(property, {
        seed: SEED,
        numRuns: RUNS,
        plugins: [fc.interruptAfterTimeLimit(TIME_LIMIT_MS, { failOnInterrupt: true })],
      });
    },
    TIME_LIMIT_MS + 60_000,
  );
});
