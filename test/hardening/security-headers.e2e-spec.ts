import { jest } from '@jest/globals';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Api, type Response, startTestApp } from '../support/test-app';

// Sign-ups and sign-ins hash passwords (scrypt): slow on a busy machine.
jest.setTimeout(60_000);

const API_POLICY = "default-src 'none';frame-ancestors 'none'";

/** What every answer carries, JSON and HTML alike. */
function expectSecurityHeaders(response: Response) {
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  expect(response.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
  expect(response.headers['referrer-policy']).toBe('no-referrer');
  expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
  expect(response.headers['x-powered-by']).toBeUndefined();
}

// Headers that only mean something to an HTML document.
const HTML_ONLY = [
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

/** The directives of a Content-Security-Policy header, by name. */
function directivesOf(policy: string | undefined): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of (policy ?? '').split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

/** The sources a fetch directive falls back to, as a browser reads the policy. */
function sourcesFor(directives: Map<string, string[]>, ...names: string[]): string[] {
  for (const name of [...names, 'default-src']) {
    const sources = directives.get(name);
    if (sources) return sources;
  }
  return ['*'];
}

describe('security headers', () => {
  let app: NestFastifyApplication;
  let api: Api;

  beforeAll(async () => {
    app = await startTestApp();
    api = new Api(app);
  });

  afterAll(() => app.close());

  it('are on API answers, errors and unknown routes: a policy that allows nothing to load, and none of the HTML-only ones', async () => {
    const { token } = await api.newAccount('henry');
    const answers = [
      await api.get('/projects', { token }),
      await api.get('/projects'),
      await api.get('/no/such/route'),
      await api.request('POST', '/projects', {
        token,
        raw: 'x',
        headers: { 'content-type': 'text/plain' },
      }),
      await api.get('/health/live'),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 401, 404, 415, 200]);
    for (const answer of answers) {
      expectSecurityHeaders(answer);
      expect(answer.headers['content-security-policy']).toBe(API_POLICY);
      expect(answer.headers['x-frame-options']).toBe('DENY');
      for (const name of HTML_ONLY) expect(answer.headers[name]).toBeUndefined();
    }
  });

  it('let the explorer at /docs load everything its page names', async () => {
    const page = await api.get('/docs');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expectSecurityHeaders(page);
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
    const policy = directivesOf(page.headers['content-security-policy']);
    expect(policy.has('upgrade-insecure-requests')).toBe(false);

    const html = page.text;
    const pageUrl = new URL('/docs', 'http://127.0.0.1');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    const stylesheets = [...html.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*href="([^"]+)"/gi)];
    const images = [...html.matchAll(/<link\b[^>]*rel="icon"[^>]*href="([^"]+)"/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    expect(stylesheets.length).toBeGreaterThan(0);

    const assets: Array<{ url: URL; directive: string[] }> = [];
    for (const [, attributes, body] of scripts) {
      const src = /\bsrc="([^"]+)"/.exec(attributes)?.[1];
      // An inline script would need 'unsafe-inline' (or a nonce): there must be none.
      expect(src ?? `inline script: ${body.trim().slice(0, 80)}`).toBeDefined();
      if (src === undefined) throw new Error(`the page has an inline script: ${body.slice(0, 80)}`);
      assets.push({
        url: new URL(src, pageUrl),
        directive: sourcesFor(policy, 'script-src-elem', 'script-src'),
      });
    }
    for (const [, href] of stylesheets) {
      assets.push({
        url: new URL(href, pageUrl),
        directive: sourcesFor(policy, 'style-src-elem', 'style-src'),
      });
    }
    for (const [, href] of images) {
      assets.push({ url: new URL(href, pageUrl), directive: sourcesFor(policy, 'img-src') });
    }
    for (const { url, directive } of assets) {
      // Every asset is the server's own, and the policy allows its own origin for that kind.
      expect(url.origin).toBe(pageUrl.origin);
      expect(directive).toContain("'self'");
      const asset = await api.get(url.pathname);
      expect({ path: url.pathname, status: asset.status }).toEqual({
        path: url.pathname,
        status: 200,
      });
    }
    // The page's <style> block and style="" attributes need inline styles.
    if (/<style\b|\sstyle="/i.test(html)) {
      expect(sourcesFor(policy, 'style-src-attr', 'style-src')).toContain("'unsafe-inline'");
      expect(sourcesFor(policy, 'style-src-elem', 'style-src')).toContain("'unsafe-inline'");
    }
    // "Try it out" calls the API on the same origin.
    expect(sourcesFor(policy, 'connect-src')).toContain("'self'");
    // The UI draws its icons from data: URLs.
    expect(sourcesFor(policy, 'img-src')).toContain('data:');
  });
});

describe('CORS', () => {
  let app: NestFastifyApplication;
  let api: Api;

  beforeAll(async () => {
    app = await startTestApp({ CORS_ORIGINS: 'https://editor.example.com' });
    api = new Api(app);
  });

  afterAll(() => app.close());

  it('answers a configured origin, and lets it read the request id and the RateLimit fields', async () => {
    const { token } = await api.newAccount('ivy');
    const response = await api.get('/projects', {
      token,
      headers: { origin: 'https://editor.example.com' },
    });
    expect(response.headers['access-control-allow-origin']).toBe('https://editor.example.com');
    const exposed = (response.headers['access-control-expose-headers'] ?? '').toLowerCase();
    for (const name of ['x-request-id', 'ratelimit', 'ratelimit-policy', 'allow', 'retry-after']) {
      expect(exposed.split(/,\s*/)).toContain(name);
    }
  });

  it('tells a request without Origin only that answers vary by origin', async () => {
    const { token } = await api.newAccount('kim');
    const response = await api.get('/projects', { token });
    expect(response.status).toBe(200);
    expect(response.headers.vary).toMatch(/\bOrigin\b/);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.headers['access-control-expose-headers']).toBeUndefined();
  });

  it('gives an origin that is not configured no Access-Control-Allow-Origin', async () => {
    const { token } = await api.newAccount('jack');
    const simple = await api.get('/projects', {
      token,
      headers: { origin: 'https://evil.example' },
    });
    expect(simple.status).toBe(200);
    expect(simple.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await api.request('OPTIONS', '/projects', {
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});
