import { existsSync, readFileSync } from 'node:fs';
import { cp, stat, symlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { freePort } from '../test/support/free-port';
import { type ServerProcess, startServer } from './processes';

// How the two servers are started: the service from a private copy of its production build, the
// yardstick from its private copy (bench/yardstick.ts); both as their own process groups on
// free ports, each on its own database.

const ROOT = resolve(__dirname, '..');
const BUILD_ENTRY = 'dist/apps/api/src/main.js';

/**
 * A private copy of the production build (with the migrations it applies and a link to the
 * installed packages): the checkout's dist/ is shared, and anyone's `npm run build` empties it
 * for a while, which must not take down a bench run half-way.
 */
export async function snapshotBuild(tempDir: string): Promise<{ entry: string; builtAt: Date }> {
  const source = join(ROOT, BUILD_ENTRY);
  if (!existsSync(source)) {
    throw new Error(`${source} is missing: run \`npm run build\` first (npm run bench does)`);
  }
  const app = join(tempDir, 'app');
  const builtAt = (await stat(source)).mtime;
  await cp(join(ROOT, 'dist'), join(app, 'dist'), { recursive: true });
  await cp(join(ROOT, 'prisma/migrations'), join(app, 'prisma/migrations'), { recursive: true });
  await cp(join(ROOT, 'package.json'), join(app, 'package.json'));
  await symlink(join(ROOT, 'node_modules'), join(app, 'node_modules'), 'dir');
  const entry = join(app, BUILD_ENTRY);
  if (!existsSync(entry)) throw new Error('dist/ changed while it was copied (a build running?)');
  return { entry, builtAt };
}

/** The `config` of package.json: how `npm start` and `npm run start:prod` run the service. */
function packageConfig(packageJson: string): { nodeFlags?: string; mallocArenaMax?: string } {
  const { config } = JSON.parse(readFileSync(packageJson, 'utf8')) as {
    config?: { nodeFlags?: string; mallocArenaMax?: string };
  };
  return config ?? {};
}

/**
 * The Node flags the service runs with in production (`config.nodeFlags` in package.json, which
 * `npm start` and `npm run start:prod` pass to node): the bench measures the service as it runs.
 */
export function serviceNodeFlags(packageJson = join(ROOT, 'package.json')): string[] {
  const { nodeFlags } = packageConfig(packageJson);
  return (nodeFlags ?? '').split(/\s+/).filter((flag) => flag !== '');
}

/** glibc's malloc arenas for the service, as the start scripts set them (`config.mallocArenaMax`). */
export function serviceMallocEnv(packageJson = join(ROOT, 'package.json')): NodeJS.ProcessEnv {
  const { mallocArenaMax } = packageConfig(packageJson);
  return mallocArenaMax === undefined ? {} : { MALLOC_ARENA_MAX: mallocArenaMax };
}

/** Inherited environment without what would change the servers' behaviour. */
export function inheritedEnv(): NodeJS.ProcessEnv {
  const {
    DATABASE_URL: _url,
    NODE_OPTIONS: _options,
    PORT: _port,
    HOST: _host,
    MALLOC_ARENA_MAX: _arenas,
    ...env
  } = process.env;
  return env;
}

/** A server on this machine: the bench's environment, its database, and a port of loopback. */
export function localServerEnv(databaseUrl: string, port: number): NodeJS.ProcessEnv {
  return { ...inheritedEnv(), DATABASE_URL: databaseUrl, HOST: '127.0.0.1', PORT: String(port) };
}

export interface Servers {
  service: ServerProcess;
  yardstick: ServerProcess;
}

export async function startService(
  entry: string,
  databaseUrl: string,
  cwd: string,
  name = 'service',
): Promise<ServerProcess> {
  const port = await freePort();
  return startServer({
    name,
    args: [...serviceNodeFlags(), entry],
    // Not the checkout: a developer's .env there must not reconfigure the run.
    cwd,
    port,
    readyPath: '/health/ready',
    env: {
      ...localServerEnv(databaseUrl, port),
      ...serviceMallocEnv(),
      RATE_LIMIT_ENABLED: 'false',
      LOG_LEVEL: 'warn',
      // The seeded token must outlive a long run (the default is an hour).
      TOKEN_TTL_SECONDS: '86400',
    },
  });
}

export async function startYardstick(
  dir: string,
  databaseUrl: string,
  name = 'yardstick',
): Promise<ServerProcess> {
  const port = await freePort();
  return startServer({
    name,
    args: [join(dir, 'server.mjs')],
    cwd: dir,
    port,
    readyPath: '/health/live',
    env: localServerEnv(databaseUrl, port),
  });
}
