import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { PAGE_CSP } from '../../apps/api/src/publishing/html-page';
import { Api, createLayout, startTestApp } from '../support/test-app';

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

let apps: NestFastifyApplication[];
let api: Api;
let other: Api;
let token: string;

beforeAll(async () => {
  apps = await Promise.all([startTestApp(), startTestApp()]);
  [api, other] = apps.map((app) => new Api(app));
  ({ token } = await api.newAccount('links'));
}, 60_000);

afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
});

async function projectWithLink(body: object = {}) {
  const paths = await createLayout(api, token);
  await api.put(paths.project, { title: 'Shown' }, { token });
  const created = await api.post(`${paths.project}/links`, body, { token });
  expect(created.status).toBe(201);
  const revision = (await api.get(paths.project, { token })).body.revision as number;
  return { paths, revision, link: created.body, location: created.headers.location! };
}

/** The project's links, as the owner lists them. */
async function links(project: string) {
  const listed = await api.get(`${project}/links`, { token });
  expect(listed.status).toBe(200);
  return listed.body as { _id: string; views: number; lastViewedAt: string | null }[];
}

describe('share links', () => {
  it('creates a link with an unguessable URL shown once, and lists it without', async () => {
    const { paths, link, location, revision } = await projectWithLink();
    expect(link.url).toMatch(/^\/shared\/[A-Za-z0-9_-]{43}$/);
    expect(location).toBe(`${paths.project}/links/${link._id}`);
    expect(link).toMatchObject({ views: 0, lastViewedAt: null, expiresAt: null, revision });
    const listed = await api.get(`${paths.project}/links`, { token });
    expect(listed.headers.etag).toMatch(/^"k[0-9a-f]{32}"$/);
    expect(listed.body).toEqual([{ ...link, url: null }]);
    const again = await api.get(`${paths.project}/links`, {
      token,
      headers: { 'if-none-match': listed.headers.etag! },
    });
    expect(again.status).toBe(304);
  });

  it('opens without an account as the page of its revision, and keeps showing that revision', async () => {
    const { paths, link, revision } = await projectWithLink();
    await api.put(paths.project, { title: 'Changed later' }, { token });
    const opened = await api.get(link.url);
    expect(opened.status).toBe(200);
    expect(opened.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(opened.headers['content-security-policy']).toBe(PAGE_CSP);
    expect(opened.headers['cache-control']).toBe('private, max-age=60');
    expect(opened.headers['referrer-policy']).toBe('no-referrer');
    expect(opened.headers.etag).toBe(`"r${revision}"`);
    expect(opened.text).toContain('<title>Shown</title>');
    const current = await api.get(`${paths.project}/render`, { token });
    expect(current.text).toContain('<title>Changed later</title>');
  });

  it('counts views across instances, exactly, without a write per open', async () => {
    const { paths, link } = await projectWithLink();
    const opens = [api, other, api, other, other];
    for (const client of opens) expect((await client.get(link.url)).status).toBe(200);
    // The listing adds its own instance's counts at once; the other's arrive with its flush.
    const deadline = Date.now() + 20_000;
    let listed = await links(paths.project);
    while (listed[0].views < opens.length && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      listed = await links(paths.project);
    }
    expect(listed[0].views).toBe(opens.length);
    expect(Date.parse(listed[0].lastViewedAt!)).toBeGreaterThan(Date.parse(link.createdAt));
    // An open that finds nothing counts nothing.
    await api.get(`/shared/${'A'.repeat(43)}`);
    expect((await links(paths.project))[0].views).toBe(opens.length);
  });

  it('stops working at once on every instance when revoked', async () => {
    const { paths, link } = await projectWithLink();
    expect((await other.get(link.url)).status).toBe(200);
    expect((await api.delete(`${paths.project}/links/${link._id}`, { token })).status).toBe(204);
    for (const client of [api, other]) {
      const gone = await client.get(link.url);
      expect(gone.status).toBe(404);
      expect(gone.headers['content-type']).toMatch(/^application\/problem\+json/);
    }
    expect(await links(paths.project)).toEqual([]);
    expect((await api.delete(`${paths.project}/links/${link._id}`, { token })).status).toBe(404);
  });

  it('answers a browser a small HTML page for an unknown, malformed, expired or pruned link', async () => {
    const html = await api.get(`/shared/${'B'.repeat(43)}`, {
      headers: { accept: BROWSER_ACCEPT },
    });
    expect(html.status).toBe(404);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.text).toContain('This link is not available');
    const malformed = await api.get('/shared/short', { headers: { accept: 'application/json' } });
    expect(malformed.status).toBe(404);
    expect(malformed.body.type).toBe('/problems/not-found');

    const soon = new Date(Date.now() + 1500).toISOString();
    const { link } = await projectWithLink({ expiresAt: soon });
    expect(link.expiresAt).toBe(soon);
    while (Date.now() <= Date.parse(soon)) await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await api.get(link.url)).status).toBe(404);
  });

  it('links a kept past revision, refuses one that is not, and 404s once it is pruned', async () => {
    const app = await startTestApp({ HISTORY_REVISIONS: '3' });
    const pruning = new Api(app);
    try {
      const { token: owner } = await pruning.newAccount('links-prune');
      const paths = await createLayout(pruning, owner);
      const first = await pruning.post(`${paths.project}/links`, { revision: 1 }, { token: owner });
      expect(first.status).toBe(404);
      const kept = await pruning.post(`${paths.project}/links`, { revision: 3 }, { token: owner });
      expect(kept.status).toBe(201);
      expect((await pruning.get(kept.body.url)).text).toContain('<title>Proposal</title>');
      for (let i = 0; i < 20; i += 1) {
        await pruning.put(paths.project, { title: `T${i}` }, { token: owner });
      }
      expect((await pruning.get(kept.body.url)).status).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('refuses bad bodies, other accounts, and more than 100 live links per project', async () => {
    const { paths } = await projectWithLink();
    for (const body of [
      { revision: 0 },
      { revision: '2' },
      { expiresAt: 'tomorrow' },
      { expiresAt: '2000-01-01T00:00:00Z' },
      { colour: 1 },
    ]) {
      const refused = await api.post(`${paths.project}/links`, body, { token });
      expect([body, refused.status]).toEqual([body, 400]);
    }
    const stranger = await api.newAccount('links-stranger');
    expect((await api.post(`${paths.project}/links`, {}, { token: stranger.token })).status).toBe(
      404,
    );
    expect((await api.get(`${paths.project}/links`, { token: stranger.token })).status).toBe(404);
    const [mine] = await links(paths.project);
    expect(
      (await api.delete(`${paths.project}/links/${mine._id}`, { token: stranger.token })).status,
    ).toBe(404);
    expect((await api.delete(`${paths.project}/links/not-an-id`, { token })).status).toBe(404);

    // 99 more at once, from both instances: exactly 100 live, the rest refused.
    const created = await Promise.all(
      Array.from({ length: 110 }, (_, i) =>
        (i % 2 ? other : api).post(`${paths.project}/links`, {}, { token }),
      ),
    );
    const statuses = created.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(99);
    expect(statuses.filter((status) => status === 409)).toHaveLength(11);
    const refused = created.find((answer) => answer.status === 409)!;
    expect(refused.body).toMatchObject({ type: '/problems/limit-exceeded', limit: 100 });
    expect(await links(paths.project)).toHaveLength(100);
  });

  it('limits the opens per client address, with a budget of their own', async () => {
    const app = await startTestApp({ RATE_LIMIT_SHARED_MAX: '3' });
    const limited = new Api(app);
    try {
      const { token: owner } = await limited.newAccount('links-limit');
      const paths = await createLayout(limited, owner);
      const link = (await limited.post(`${paths.project}/links`, {}, { token: owner })).body;
      const answers = [];
      for (let i = 0; i < 4; i += 1) answers.push(await limited.get(link.url));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
      expect(answers[0].headers['ratelimit-policy']).toBe('"shared";q=3;w=60');
      expect(answers[3].headers['retry-after']).toMatch(/^\d+$/);
      // The account's own budget is another one.
      expect((await limited.get(`${paths.project}/links`, { token: owner })).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
