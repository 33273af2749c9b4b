import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, open, readdir, readFile, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository root: the folder above the working directory that holds this package. */
export function repoRoot(): string {
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'nest-cli.json')) && existsSync(join(dir, 'package.json'))) return dir;
    if (dir === dirname(dir)) throw new Error(`no repository root above ${process.cwd()}`);
  }
}

const ROOT = repoRoot();
const DIST = join(ROOT, 'dist');
const ENTRY = join('apps', 'api', 'src', 'main.js');
// Ignored by git (.gitignore: test/artifacts/).
const SNAPSHOTS = join(ROOT, 'test', 'artifacts', 'resilience-build');
const LOCK = join(ROOT, 'test', 'artifacts', 'resilience-build.lock');
// What `nest build api` compiles, plus what decides how it compiles.
const SOURCES = ['apps', 'libs', 'prisma'].map((folder) => join(ROOT, folder));
const CONFIG_FILES = [
  'package.json',
  'nest-cli.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'apps/api/tsconfig.app.json',
].map((file) => join(ROOT, file));
const BUILD_TIMEOUT_MS = 240_000;
const LOCK_WAIT_MS = BUILD_TIMEOUT_MS + 30_000;

/**
 * Builds the service with `npm run build` when dist is missing or older than a source, then
 * returns the path of an entry script to spawn. Test files run in parallel workers, so the
 * check-and-build runs under a lock file: the first worker builds, the others wait and find the
 * build fresh.
 *
 * LAYOUT_SERVICE_ENTRY, when set, names an already-built entry script to use instead.
 *
 * The entry script is a copy of dist under test/artifacts (one per build), because dist is
 * shared: a concurrent `nest build` (deleteOutDir) empties it while a spawned service might be
 * loading modules from it. The copy sits inside the repository, so node_modules resolves.
 */
export async function ensureBuilt(): Promise<string> {
  // An entry built elsewhere (a CI step that already built, a private build while the shared
  // checkout does not compile): used as is.
  const given = process.env.LAYOUT_SERVICE_ENTRY;
  if (given) return given;
  return withLock(async () => {
    const built = await mtime(join(DIST, ENTRY));
    const newestSource = await newestMtime([...SOURCES, ...CONFIG_FILES]);
    if (built === undefined || built < newestSource) {
      try {
        await run('npm', ['run', 'build'], {
          cwd: ROOT,
          timeout: BUILD_TIMEOUT_MS,
          maxBuffer: 16 * 1024 * 1024,
          env: { ...process.env, NODE_OPTIONS: '' },
        });
      } catch (error) {
        const { stdout, stderr } = error as { stdout?: string; stderr?: string };
        throw new Error(`npm run build failed:\n${stdout ?? ''}\n${stderr ?? ''}`);
      }
    }
    const stamp = await mtime(join(DIST, ENTRY));
    if (stamp === undefined) throw new Error(`npm run build left no ${join('dist', ENTRY)}`);
    const snapshot = join(SNAPSHOTS, String(Math.floor(stamp)));
    if (!existsSync(join(snapshot, 'complete'))) {
      await rm(snapshot, { recursive: true, force: true });
      await mkdir(snapshot, { recursive: true });
      await cp(DIST, join(snapshot, 'dist'), { recursive: true });
      await (await open(join(snapshot, 'complete'), 'w')).close();
      // Copies of earlier builds go once they are old enough that no test can still be
      // starting a service from one (a source edited during a run causes a second build).
      for (const entry of await readdir(SNAPSHOTS)) {
        const copiedAt = await mtime(join(SNAPSHOTS, entry));
        if (entry !== String(Math.floor(stamp)) && (copiedAt ?? 0) < Date.now() - 30 * 60_000) {
          await rm(join(SNAPSHOTS, entry), { recursive: true, force: true });
        }
      }
    }
    return join(snapshot, 'dist', ENTRY);
  });
}

async function mtime(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mtimeMs;
  } catch {
    return undefined;
  }
}

async function newestMtime(paths: string[]): Promise<number> {
  let newest = 0;
  for (const path of paths) {
    let info;
    try {
      info = await stat(path);
    } catch {
      continue;
    }
    newest = Math.max(newest, info.mtimeMs);
    if (info.isDirectory()) {
      const entries = await readdir(path, { withFileTypes: true });
      newest = Math.max(
        newest,
        await newestMtime(
          entries
            .filter((entry) => entry.name !== 'node_modules' && !entry.name.startsWith('.'))
            .map((entry) => join(path, entry.name)),
        ),
      );
    }
  }
  return newest;
}

/**
 * Runs `task` while holding an exclusive lock file (created with O_EXCL). The holder writes its
 * pid; a lock whose holder is gone is taken over, so a killed run does not block the next one.
 */
async function withLock<T>(task: () => Promise<T>): Promise<T> {
  await mkdir(dirname(LOCK), { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(LOCK, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (await holderIsGone()) {
        await unlink(LOCK).catch(() => undefined);
        continue;
      }
      if (Date.now() > deadline) throw new Error(`${LOCK} is still held after ${LOCK_WAIT_MS} ms`);
      // The holder is building (seconds): checking a few times a second costs nothing.
      await new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** attempt, 500)));
    }
  }
  try {
    return await task();
  } finally {
    await unlink(LOCK).catch(() => undefined);
  }
}

async function holderIsGone(): Promise<boolean> {
  let pid: number;
  try {
    pid = Number(await readFile(LOCK, 'utf8'));
  } catch {
    return false; // just created and not written yet, or just released: look again
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
