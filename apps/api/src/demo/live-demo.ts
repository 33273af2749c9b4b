import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type FastifyInstance } from 'fastify';

/** Where the demo is served: the page at `/demo/live`, its script and style beside it. */
export const DEMO_PATH = '/demo';
export const LIVE_DEMO_PATH = `${DEMO_PATH}/live`;

/** Where its files are kept, relative to the repository. */
const DEMO_FOLDER = join('apps', 'api', 'src', 'demo');

/**
 * The page's content security policy: its own script and style (no inline code), requests to
 * this origin only (fetch and EventSource are both `connect-src`), the empty `data:` icon, and
 * nothing else: no frames, no other origin, no `<base>`, forms handled by its script.
 */
export const LIVE_DEMO_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
} as const;

/** Each served path and the file it answers. */
const FILES: ReadonlyArray<{ path: string; file: string; type: keyof typeof TYPES }> = [
  { path: LIVE_DEMO_PATH, file: 'live.html', type: 'html' },
  { path: `${DEMO_PATH}/live.js`, file: 'live.js', type: 'js' },
  { path: `${DEMO_PATH}/live.css`, file: 'live.css', type: 'css' },
];

/**
 * The demo's folder, found above the entry script (the build output, or the test runner inside
 * node_modules) or else above the working directory, as prisma/migrations is: the build
 * (`nest build`, tsc) copies no asset, and the built service runs from its clone anyway.
 * `__dirname` is not used because the same source also runs as an ES module under Jest.
 */
export function findDemoDir(): string | undefined {
  const starts = [process.argv[1] ? dirname(process.argv[1]) : undefined, process.cwd()].filter(
    (start): start is string => start !== undefined,
  );
  for (const start of starts) {
    for (let dir = start; ; dir = dirname(dir)) {
      const candidate = join(dir, DEMO_FOLDER);
      if (existsSync(join(candidate, 'live.html'))) return candidate;
      if (dir === dirname(dir)) break;
    }
  }
  return undefined;
}

/**
 * GET /demo/live: a static page that signs in, opens a project and shows its tree as it changes
 * (the project's event stream, with a ticket) with an undo button; GET /demo/live.js and
 * /demo/live.css, its script and style. Plain Fastify routes, like the problem pages: public (the
 * page asks for the token itself), no request budget, no operation of the OpenAPI document. The
 * files are read once, here; without them (a deployment of the build output alone) the paths
 * stay unknown, 404 like any other. The API's security headers stay, but the page's own content
 * security policy replaces the API's `default-src 'none'`.
 */
export function serveLiveDemo(fastify: FastifyInstance, dir = findDemoDir()): void {
  if (dir === undefined) return;
  for (const { path, file, type } of FILES) {
    const body = readFileSync(join(dir, file), 'utf8');
    const headers: Record<string, string> = {
      'content-type': TYPES[type],
      // Small, and changed with the service: revalidated at every use.
      'cache-control': 'no-cache',
    };
    if (type === 'html') headers['content-security-policy'] = LIVE_DEMO_CSP;
    fastify.get(path, (_request, reply) => reply.headers(headers).send(body));
  }
}
