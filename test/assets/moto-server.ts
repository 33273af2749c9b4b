import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { freePort } from '../support/free-port';

/** The S3-protocol server the S3 store's tests run against (Python moto's, on the machine). */
export const MOTO_SERVER = process.env.MOTO_SERVER_PATH ?? 'moto_server';

function inCi(): boolean {
  const ci = process.env.CI;
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

function motoServerRuns(): boolean {
  return spawnSync(MOTO_SERVER, ['--help'], { stdio: 'ignore' }).status === 0;
}

/**
 * `describe` for tests that need moto_server: without it they fail in CI (a missing server must
 * not turn into a green build) and are skipped with a warning elsewhere.
 */
export function describeWithMotoServer(name: string, body: () => void): void {
  if (motoServerRuns()) {
    describe(name, body);
    return;
  }
  const install = 'pip install "moto[server]"';
  if (inCi()) {
    describe(name, () => {
      it('needs moto_server', () => {
        throw new Error(`${MOTO_SERVER} is missing and CI is set: install it (${install})`);
      });
    });
    return;
  }
  console.warn(
    `SKIPPED "${name}": no ${MOTO_SERVER}. Install it (${install}) or set MOTO_SERVER_PATH to ` +
      'run the S3 store tests; with CI set they fail instead.',
  );
  describe.skip(name, body);
}

/** A moto_server of its own on a free loopback port, answering once this resolves. */
export async function startMotoServer(): Promise<{ endpoint: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(MOTO_SERVER, ['-H', '127.0.0.1', '-p', String(port)], {
    stdio: 'ignore',
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const up = await fetch(`${endpoint}/`).then(
      (response) => response.arrayBuffer().then(() => true),
      () => false,
    );
    if (up) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${MOTO_SERVER} did not start on port ${port}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    endpoint,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
