import { fork } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { PROJECT_TREE_MAX_BYTES } from '../libs/contracts/src/limits';
import { quoteOf } from '../test/support/big-contents';
import { interrupted, onCleanup, onExitKill } from './cleanup';
import { type GreedyCounts, type GreedyMessage, type GreedyOrder } from './fairness-greedy';
import { call, expectCall, idOf } from './http';
import { type BenchContext } from './measure';
import { sampleUsage, type Usage } from './proc-stats';
import { createWriteProject } from './write-project';

/** The other account's small reads: a modest rate, not a load. */
export const FAIRNESS_VICTIM = { connections: 2, rate: 100 };
/** The greedy account's parallel reads of its largest project. */
export const FAIRNESS_GREEDY_CONNECTIONS = 20;
/** Each quote content's data (test/support/big-contents.ts). */
const QUOTE_BYTES = 250_000;

/** The other account's reads, as measured in one phase. */
export interface VictimRun extends Usage {
  requests: number;
  p50: number;
  p99: number;
  max: number;
  /** Answers other than 200. */
  non200: number;
  /** Connection errors and timeouts. */
  errors: number;
}

export interface FairnessResult {
  /** Bytes of the greedy account's `GET /projects/<id>` answer, and its contents. */
  bigProjectBytes: number;
  bigProjectContents: number;
  /** Bytes of the other account's small project's answer. */
  smallProjectBytes: number;
  unloaded: VictimRun;
  loaded: VictimRun;
  greedy: GreedyCounts;
}

/**
 * `fairness` (CONTRACT.md part two, "Isolation and time limits"): against the service only, the
 * yardstick has no accounts. Two fresh accounts: the greedy one owns a project filled close to
 * the 8 MiB whole-answer limit with ~250 KB quote contents, the other a small project of the
 * read projects' shape. The other account's `GET /projects/<id>` at a modest fixed rate is
 * measured alone, then while the greedy account reads its large project in 20 parallel
 * connections (from a process of its own, started `warmup` seconds before the measurement).
 */
export async function measureFairness(ctx: BenchContext): Promise<FairnessResult> {
  const { url } = ctx.servers.service;
  const { duration, warmup } = ctx.settings;
  ctx.log('fairness: two accounts; the greedy one fills a project close to 8 MiB');
  const greedyToken = await newAccount(url, 'greedy');
  const otherToken = await newAccount(url, 'other');
  const small = (await createWriteProject(url, otherToken)).project;
  const big = await bigProject(url, greedyToken);
  const smallProjectBytes = await answerBytes(url, `/projects/${small}`, otherToken);
  ctx.log(
    `  ${big.contents} contents, ${(big.bytes / 1024 / 1024).toFixed(2)} MiB; the other's ` +
      `project ${(smallProjectBytes / 1024).toFixed(1)} KiB`,
  );

  const victim = (seconds: number) => readSmall(url, otherToken, `/projects/${small}`, seconds);
  ctx.log(`fairness: the other account alone (${FAIRNESS_VICTIM.rate} req/s)`);
  if (warmup > 0) await victim(warmup);
  const unloaded = await measured(ctx, () => victim(duration));
  ctx.log(`  p50 ${unloaded.p50} ms, p99 ${unloaded.p99} ms, ${unloaded.non200} not 200`);

  ctx.log(`fairness: the same, while the greedy account reads its project in 20 connections`);
  const greedy = startGreedy({
    url,
    token: greedyToken,
    path: `/projects/${big.project}`,
    connections: FAIRNESS_GREEDY_CONNECTIONS,
    // Under way before the measurement starts and until after it ends.
    duration: warmup + duration + 1,
  });
  await greedy.started;
  if (warmup > 0) await new Promise((resolve) => setTimeout(resolve, warmup * 1000));
  const loaded = await measured(ctx, () => victim(duration));
  const counts = await greedy.done;
  if (interrupted()) throw new Error('interrupted');
  ctx.log(
    `  p50 ${loaded.p50} ms, p99 ${loaded.p99} ms, ${loaded.non200} not 200, ${loaded.errors} ` +
      `errors; greedy: ${JSON.stringify(counts.statuses)}, 503 types ${JSON.stringify(counts.refusals)}`,
  );
  return {
    bigProjectBytes: big.bytes,
    bigProjectContents: big.contents,
    smallProjectBytes,
    unloaded,
    loaded,
    greedy: counts,
  };
}

/** A fresh account signed up through the API, and a token of it. */
export async function newAccount(url: string, prefix: string): Promise<string> {
  const username = `bench-${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const password = 'correct horse battery staple';
  await expectCall(201, url, 'POST', '/accounts', { body: { username, password } });
  const reply = await expectCall(200, url, 'POST', '/accounts/auth/token', {
    body: { username, password },
  });
  const token = (reply.body as { token?: unknown }).token;
  if (typeof token !== 'string') throw new Error(`no token in ${JSON.stringify(reply.body)}`);
  return token;
}

async function answerBytes(url: string, path: string, token: string): Promise<number> {
  const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const bytes = (await response.arrayBuffer()).byteLength;
  if (response.status !== 200) throw new Error(`GET ${path} answered ${response.status}`);
  return bytes;
}

/**
 * project > block > row > one column, filled with ~250 KB quote contents (as
 * test/resilience/fairness.e2e-spec.ts does) until PROJECT_TREE_MAX_BYTES refuses one more.
 */
async function bigProject(url: string, token: string) {
  const post = async (path: string, body: object) =>
    idOf(await expectCall(201, url, 'POST', path, { token, body }));
  const project = await post('/projects', { title: 'Largest allowed' });
  const block = await post(`/projects/${project}/blocks`, { description: 'big' });
  const rows = `/projects/${project}/blocks/${block}/rows`;
  const row = await post(rows, { description: '' });
  const column = await post(`${rows}/${row}/columns`, { size: 4 });
  const contentsPath = `${rows}/${row}/columns/${column}/contents`;
  // Until the limit refuses one more (409): as large as the limit lets it be.
  const quote = quoteOf(QUOTE_BYTES);
  let contents = 0;
  for (;;) {
    const reply = await call(url, 'POST', contentsPath, { token, body: quote });
    if (reply.status === 409) break;
    if (reply.status !== 201 || ++contents > PROJECT_TREE_MAX_BYTES / QUOTE_BYTES) {
      throw new Error(`filling the large project: ${reply.status} ${JSON.stringify(reply.body)}`);
    }
  }
  const bytes = await answerBytes(url, `/projects/${project}`, token);
  return { project, bytes, contents };
}

async function measured(ctx: BenchContext, run: () => PromiseLike<autocannon.Result>) {
  const { pid } = ctx.servers.service;
  const usage = sampleUsage(pid, ctx.dbpid);
  const started = process.hrtime.bigint();
  const result = await run();
  const seconds = result.duration || Number(process.hrtime.bigint() - started) / 1e9;
  if (interrupted()) throw new Error('interrupted');
  const ok = result.statusCodeStats['200']?.count ?? 0;
  const answered = Object.values(result.statusCodeStats).reduce((sum, s) => sum + s.count, 0);
  return {
    requests: answered,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non200: answered - ok,
    errors: result.errors + result.timeouts,
    ...usage(seconds),
  } satisfies VictimRun;
}

/**
 * autocannon's rate cap: each connection sends its share of each second one after another, then
 * waits for the next second. p50/p99 of the 200 answers, at 1 ms resolution as everywhere here.
 */
function readSmall(url: string, token: string, path: string, seconds: number) {
  return autocannon({
    url,
    connections: FAIRNESS_VICTIM.connections,
    overallRate: FAIRNESS_VICTIM.rate,
    // Only the latencies measured: autocannon's correction for a rate assumes a 1 ms interval.
    ignoreCoordinatedOmission: true,
    duration: seconds,
    timeout: 10,
    headers: { authorization: `Bearer ${token}` },
    requests: [{ method: 'GET', path }],
  });
}

function startGreedy(order: GreedyOrder) {
  const child = fork(join(__dirname, 'fairness-greedy.ts'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const forget = onExitKill(() => child.kill('SIGKILL'));
  onCleanup('stop the greedy load', () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
  });
  let onStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (onStarted = resolve));
  const done = new Promise<GreedyCounts>((resolve, reject) => {
    child.on('message', (message: GreedyMessage) => {
      if ('started' in message) onStarted();
      else resolve(message.counts);
    });
    child.once('exit', (code) => {
      forget();
      reject(new Error(`the greedy load exited (code ${code}) without its counts`));
    });
  });
  // Started or failed, whichever comes first.
  const startedOrFailed = Promise.race([started, done.then(() => undefined)]);
  child.send(order);
  return { started: startedOrFailed, done };
}
