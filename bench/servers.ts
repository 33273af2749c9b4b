import { existsSync } from 'node:fs';
import { cp, stat, symlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { freePort } from '../test/support/free-port';
import { startServer } from './processes';

// How the two servers are built and started: the service from a private copy of its production
// build, the baseline bundled to plain JS; both as their own process groups on free ports.

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

/** The baseline, bundled to plain JS like the service's build; its packages come from ROOT. */
export async function buildBaseline(tempDir: string): Promise<string> {
  const outfile = join(tempDir, 'baseline.js');
  await build({
    entryPoints: [join(ROOT, 'bench/baseline/server.ts')],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'error',
  });
  return outfile;
}

/** Inherited environment without what would change the servers' behaviour. */
function inheritedEnv(): NodeJS.ProcessEnv {
  const { DATABASE_URL: _url, NODE_OPTIONS: _options, PORT: _port, ...env } = process.env;
  return env;
}

export async function startService(
  entry: string,
  databaseEnv: Record<string, string>,
  cwd: string,
  name = 'service',
) {
  const port = await freePort();
  return startServer({
    name,
    applicationName: 'layout-service', // set by apps/api/src/database/prisma.service.ts
    args: [entry],
    // Not the checkout: a developer's .env there must not reconfigure the run.
    cwd,
    port,
    env: {
      ...inheritedEnv(),
      ...databaseEnv,
      HOST: '127.0.0.1',
      PORT: String(port),
      RATE_LIMIT_ENABLED: 'false',
      LOG_LEVEL: 'warn',
    },
  });
}

export async function startBaseline(
  entry: string,
  databaseUrl: string,
  cwd: string,
  name = 'baseline',
) {
  const port = await freePort();
  return startServer({
    name,
    applicationName: 'layout-baseline',
    args: [entry],
    cwd,
    port,
    env: {
      ...inheritedEnv(),
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      PORT: String(port),
      NODE_PATH: join(ROOT, 'node_modules'),
    },
  });
}
