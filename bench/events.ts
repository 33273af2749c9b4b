import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { interrupted, onCleanup } from './cleanup';
import { expectCall, idOf } from './http';
import { type LatencySummary, summarize, updateContent } from './history';
import { sampleUsage } from './proc-stats';
import { type ServerProcess } from './processes';

// The live changes of CONTRACT.md part two ("Live changes"), measured on the service alone:
// the time from a write to its event on every open stream (`events-latency`), and the memory of
// one instance holding many open streams (`events-rss`). An account may hold 10 streams, so the
// streams belong to fresh accounts, 10 each, each account's streams following its own project.

/** Streams per account: the contract's most. */
export const STREAMS_PER_ACCOUNT = 10;
/** events-latency: accounts (one project and one writer each), and writes per second in all. */
export const LATENCY_ACCOUNTS = 10;
export const LATENCY_WRITES_PER_SECOND = 20;
/** events-rss: accounts, and how long the open streams are left idle before RSS is read. */
export const RSS_ACCOUNTS = 100;
export const RSS_IDLE_SECONDS = 5;
/** Requests in flight while preparing (sign-ups hash passwords: a few at a time). */
const SIGN_UP_PARALLEL = 4;
const OPEN_PARALLEL = 50;

export interface EventsLatencyResult {
  accounts: number;
  streams: number;
  writesPerSecond: number;
  /** Measured seconds (after a warm-up of writes whose events are not counted). */
  seconds: number;
  /** Measured writes (content updates), and those that did not answer 200. */
  writes: number;
  writeFailures: number;
  /** (stream, revision) pairs owed by the measured writes, and those that arrived. */
  expected: number;
  received: number;
  /** Change events out of order, repeated or skipped, and resets, on any stream. */
  disordered: number;
  resets: number;
  /** From just before the write was sent to the event's arrival on a stream, ms. */
  fromSent: LatencySummary;
  /** From the write's answer to the event's arrival (negative: the event came first), ms. */
  fromAnswer: LatencySummary;
  /** The writes' own latency, ms. */
  write: LatencySummary;
  rssMB: number | null;
  cpuPct: number | null;
  dbCpuPct: number | null;
}

export interface EventsRssResult {
  accounts: number;
  /** Streams asked for, and those that opened (200). */
  streams: number;
  opened: number;
  /** The first refusal's answer, if any stream did not open. */
  refusal?: string;
  /** Seconds to open them all. */
  openSeconds: number;
  /**
   * The instance's RSS at rest before the streams, and its peak while they opened, while they
   * were held idle, and while each received one event.
   */
  restMB: number | null;
  openingMB: number | null;
  idleMB: number | null;
  broadcastMB: number | null;
  idleSeconds: number;
  /** One write per project while the streams are open: events owed, and those that arrived. */
  broadcast: { writes: number; expected: number; received: number; seconds: number };
}

interface Owner {
  token: string;
  project: string;
  content: { path: string };
}

/** One change event as it arrived. */
interface Arrival {
  revision: number;
  at: number;
}

/** One presence event as it arrived: its `data`. */
export interface PresenceArrival {
  data: string;
  at: number;
}

/**
 * A Server-Sent Events stream read with a raw HTTP request: its change and presence events, as
 * they come, and when it ended.
 */
export class SseStream {
  readonly changes: Arrival[] = [];
  readonly presence: PresenceArrival[] = [];
  /** Resolves with the time the server ended the stream (or the connection closed). */
  readonly ended: Promise<number>;
  private endedAt: (at: number) => void = () => undefined;
  private presenceWaiters: { test: (data: string) => boolean; resolve: (at: number) => void }[] =
    [];
  resets = 0;
  /** Events whose id was not the one after the previous one. */
  disordered = 0;
  private last: number | undefined;
  private buffer = '';
  private readonly req;
  readonly opened: Promise<void>;
  private waiters: { revision: number; resolve: () => void }[] = [];

  constructor(url: string, path: string, token: string) {
    const { hostname, port } = new URL(url);
    this.req = request({
      host: hostname,
      port,
      path,
      headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      agent: false,
    });
    // Errors after the answer (the stream cut, by either side) end it: nothing to report.
    this.req.on('error', () => undefined);
    this.ended = new Promise((resolve) => (this.endedAt = resolve));
    this.opened = new Promise((resolve, reject) => {
      this.req.once('error', reject);
      this.req.once('response', (response) => {
        if (response.statusCode !== 200) {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
          response.once('end', () =>
            reject(new Error(`GET ${path}: ${response.statusCode} ${body}`)),
          );
          return;
        }
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => this.received(chunk, performance.now()));
        response.on('error', () => undefined);
        response.once('close', () => this.endedAt(performance.now()));
        resolve();
      });
    });
    this.req.end();
  }

  /**
   * Resolves with the arrival time of the first presence event from now on whose data passes
   * `test`.
   */
  nextPresence(test: (data: string) => boolean): Promise<number> {
    return new Promise((resolve) => this.presenceWaiters.push({ test, resolve }));
  }

  /** Whether a change event with this revision (or a later one) came. */
  has(revision: number): boolean {
    return this.last !== undefined && this.last >= revision;
  }

  /** Resolves once the change event of `revision` (or a later one) came. */
  until(revision: number): Promise<void> {
    if (this.has(revision)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ revision, resolve }));
  }

  close(): void {
    this.req.destroy();
  }

  private received(chunk: string, at: number) {
    this.buffer += chunk;
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end < 0) return;
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      let id: number | undefined;
      let event = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('id:')) id = Number(line.slice(3).trim());
        else if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data = line.slice(5).trim();
      }
      if (event === 'presence') {
        this.presence.push({ data, at });
        this.presenceWaiters = this.presenceWaiters.filter((waiter) => {
          if (!waiter.test(data)) return true;
          waiter.resolve(at);
          return false;
        });
        continue;
      }
      if (id === undefined) continue; // a comment (keep-alive) or the `retry:` field
      if (event === 'reset') {
        this.resets++;
      } else if (event === 'change') {
        if (this.last !== undefined && id !== this.last + 1) this.disordered++;
        this.changes.push({ revision: id, at });
      }
      this.last = id;
      this.waiters = this.waiters.filter((w) => {
        if (w.revision > id) return true;
        w.resolve();
        return false;
      });
    }
  }
}

/** Runs `task` over `items`, `parallel` at a time. */
export async function inParallel<T, R>(
  items: T[],
  parallel: number,
  task: (item: T, i: number) => Promise<R>,
) {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await task(items[i], i);
      }
    }),
  );
  return results;
}

/** A fresh account (signed up through the API) owning a project of one text content. */
async function newOwner(url: string, label: string, i: number): Promise<Owner> {
  const username = `bench-${label}-${i}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const password = 'correct horse battery staple';
  await expectCall(201, url, 'POST', '/accounts', { body: { username, password } });
  const reply = await expectCall(200, url, 'POST', '/accounts/auth/token', {
    body: { username, password },
  });
  const token = (reply.body as { token?: unknown }).token;
  if (typeof token !== 'string') throw new Error(`no token in ${JSON.stringify(reply.body)}`);
  const post = async (path: string, body: object) =>
    expectCall(201, url, 'POST', path, { token, body });
  const project = idOf(await post('/projects', { title: 'Watched' }));
  const block = `/projects/${project}/blocks/${idOf(await post(`/projects/${project}/blocks`, { description: 'b' }))}`;
  const row = `${block}/rows/${idOf(await post(`${block}/rows`, { description: '' }))}`;
  const column = await post(`${row}/columns`, {
    size: 12,
    contents: [{ type: 'text', data: { html: '<p>Watched by the bench.</p>' } }],
  });
  const [content] = (column.body as { contents: { _id: string }[] }).contents;
  return {
    token,
    project,
    content: { path: `${row}/columns/${idOf(column)}/contents/${content._id}` },
  };
}

function newOwners(url: string, label: string, count: number): Promise<Owner[]> {
  return inParallel(
    Array.from({ length: count }, (_, i) => i),
    SIGN_UP_PARALLEL,
    (i) => newOwner(url, label, i),
  );
}

/**
 * Each owner's STREAMS_PER_ACCOUNT streams of its project, opened on `url`; those that did not
 * open (any answer but 200) are counted, the first one's answer kept.
 */
async function openStreams(url: string, owners: Owner[]) {
  const all: SseStream[] = [];
  onCleanup('close the bench’s event streams', () => all.forEach((stream) => stream.close()));
  const slots = owners.flatMap((owner, o) =>
    Array.from({ length: STREAMS_PER_ACCOUNT }, () => ({ owner, o })),
  );
  let refused = 0;
  let firstRefusal: string | undefined;
  const opened = await inParallel(slots, OPEN_PARALLEL, async ({ owner }) => {
    const stream = new SseStream(url, `/projects/${owner.project}/events`, owner.token);
    all.push(stream);
    try {
      await stream.opened;
      return stream;
    } catch (error) {
      refused++;
      firstRefusal ??= error instanceof Error ? error.message : String(error);
      stream.close();
      return undefined;
    }
  });
  const streams = owners.map((_, o) =>
    opened.filter((stream, i): stream is SseStream => stream !== undefined && slots[i].o === o),
  );
  return { streams, refused, firstRefusal };
}

/**
 * `events-latency`: LATENCY_ACCOUNTS fresh accounts, each with a project and
 * STREAMS_PER_ACCOUNT streams of it open on the service (100 in all). Each project has one
 * writer, which updates its content every LATENCY_ACCOUNTS / LATENCY_WRITES_PER_SECOND seconds,
 * the writers staggered evenly (LATENCY_WRITES_PER_SECOND writes a second in all), for a
 * warm-up whose events are not counted, then for the measured seconds. Every (stream, measured
 * write) pair is a sample: from just before the write was sent (the write's own time included:
 * its commit falls somewhere inside it) to the event's arrival on that stream, and from the
 * write's answer to the event. All times are this process's clock; the event's arrival is when
 * its bytes were handed to this process.
 */
export async function measureEventsLatency(
  server: ServerProcess,
  settings: { duration: number; warmup: number },
  dbpid: number | undefined,
  log: (message: string) => void,
): Promise<EventsLatencyResult> {
  const { url } = server;
  const owners = await newOwners(url, 'events', LATENCY_ACCOUNTS);
  const { streams, refused, firstRefusal } = await openStreams(url, owners);
  log(`  ${streams.flat().length} streams open over ${owners.length} accounts`);
  if (refused > 0) throw new Error(`${refused} event streams did not open: ${firstRefusal}`);
  const period = (LATENCY_ACCOUNTS / LATENCY_WRITES_PER_SECOND) * 1000;
  const warmupMs = Math.max(1, settings.warmup) * 1000;
  const measuredMs = settings.duration * 1000;
  const writes: { owner: number; revision: number; sent: number; answered: number }[] = [];
  let writeFailures = 0;
  const begin = performance.now();
  const measureFrom = begin + warmupMs;
  const end = measureFrom + measuredMs;
  const sampling: { stop?: ReturnType<typeof sampleUsage> } = {};
  const starter = setTimeout(() => (sampling.stop = sampleUsage(server.pid, dbpid)), warmupMs);
  await Promise.all(
    owners.map(async (owner, o) => {
      let next = begin + (o * period) / owners.length;
      for (let n = 0; ; n++) {
        const wait = next - performance.now();
        if (wait > 0) await sleep(wait);
        const sent = performance.now();
        if (sent >= end || interrupted()) return;
        try {
          const revision = await updateContent(url, owner.token, owner.content, n);
          if (sent >= measureFrom)
            writes.push({ owner: o, revision, sent, answered: performance.now() });
        } catch {
          if (sent >= measureFrom) writeFailures++;
        }
        next += period;
      }
    }),
  );
  clearTimeout(starter);
  const used = sampling.stop?.((performance.now() - measureFrom) / 1000);
  // The last events: every stream up to its project's last write, or 5 s.
  const last = owners.map((_, o) =>
    Math.max(0, ...writes.filter((w) => w.owner === o).map((w) => w.revision)),
  );
  await Promise.race([
    Promise.all(streams.flatMap((list, o) => list.map((stream) => stream.until(last[o])))),
    sleep(5000),
  ]);
  streams.flat().forEach((stream) => stream.close());

  const fromSent: number[] = [];
  const fromAnswer: number[] = [];
  let expected = 0;
  for (const [o, list] of streams.entries()) {
    for (const stream of list) {
      const arrivals = new Map(stream.changes.map((c) => [c.revision, c.at]));
      for (const w of writes.filter((x) => x.owner === o)) {
        expected++;
        const at = arrivals.get(w.revision);
        if (at === undefined) continue;
        fromSent.push(at - w.sent);
        fromAnswer.push(at - w.answered);
      }
    }
  }
  const all = streams.flat();
  const result: EventsLatencyResult = {
    accounts: owners.length,
    streams: all.length,
    writesPerSecond: LATENCY_WRITES_PER_SECOND,
    seconds: settings.duration,
    writes: writes.length,
    writeFailures,
    expected,
    received: fromSent.length,
    disordered: all.reduce((sum, s) => sum + s.disordered, 0),
    resets: all.reduce((sum, s) => sum + s.resets, 0),
    fromSent: summarize(fromSent),
    fromAnswer: summarize(fromAnswer),
    write: summarize(writes.map((w) => w.answered - w.sent)),
    rssMB: used?.rssMB ?? null,
    cpuPct: used?.cpuPct ?? null,
    dbCpuPct: used?.dbCpuPct ?? null,
  };
  log(
    `  ${result.received} of ${result.expected} events; from the write sent p50 ${result.fromSent.p50} ms, ` +
      `p99 ${result.fromSent.p99} ms; from its answer p50 ${result.fromAnswer.p50} ms, p99 ${result.fromAnswer.p99} ms`,
  );
  return result;
}

/**
 * `events-rss`: RSS_ACCOUNTS fresh accounts (signed up, each with a project, through the main
 * instance), then a fresh instance of the service on the same database (`start`), so that what
 * earlier scenarios left in the main one's heap does not count. Its RSS at rest; then
 * STREAMS_PER_ACCOUNT streams per account opened on it (1 000), left idle RSS_IDLE_SECONDS; then
 * one write per project through the main instance (the fresh one learns of it by its NOTIFY, as
 * any instance does), until each stream has its event. The peak RSS of the fresh instance and
 * its descendants (VmRSS every 100 ms, bench/proc-stats.ts) in each phase. The instance is
 * stopped afterwards.
 */
export async function measureEventsRss(
  main: ServerProcess,
  start: () => Promise<ServerProcess>,
  log: (message: string) => void,
): Promise<EventsRssResult> {
  const owners = await newOwners(main.url, 'streams', RSS_ACCOUNTS);
  log(`  ${owners.length} accounts with a project each; starting a fresh instance`);
  const instance = await start();
  try {
    const rest = sampleUsage(instance.pid, undefined);
    await sleep(1000);
    const restMB = rest(1).rssMB;
    const opening = sampleUsage(instance.pid, undefined);
    const t0 = performance.now();
    const { streams, refused, firstRefusal } = await openStreams(instance.url, owners);
    const openSeconds = (performance.now() - t0) / 1000;
    const openingMB = opening(openSeconds).rssMB;
    const all = streams.flat();
    log(
      `  ${all.length} streams open in ${openSeconds.toFixed(1)} s` +
        (refused > 0 ? ` (${refused} refused: ${firstRefusal})` : '') +
        `; idle ${RSS_IDLE_SECONDS} s`,
    );
    const idle = sampleUsage(instance.pid, undefined);
    await sleep(RSS_IDLE_SECONDS * 1000);
    const idleMB = idle(RSS_IDLE_SECONDS).rssMB;

    const broadcast = sampleUsage(instance.pid, undefined);
    const b0 = performance.now();
    const revisions = await inParallel(owners, 10, (owner, i) =>
      updateContent(main.url, owner.token, owner.content, i),
    );
    await Promise.race([
      Promise.all(streams.flatMap((list, o) => list.map((stream) => stream.until(revisions[o])))),
      sleep(10_000),
    ]);
    const broadcastSeconds = (performance.now() - b0) / 1000;
    const broadcastMB = broadcast(broadcastSeconds).rssMB;
    const received = streams.reduce(
      (sum, list, o) => sum + list.filter((stream) => stream.has(revisions[o])).length,
      0,
    );
    all.forEach((stream) => stream.close());
    log(
      `  RSS ${restMB} MiB at rest, ${openingMB} opening, ${idleMB} idle with the streams, ` +
        `${broadcastMB} with one event each (${received} of ${all.length} arrived)`,
    );
    return {
      accounts: owners.length,
      streams: owners.length * STREAMS_PER_ACCOUNT,
      opened: all.length,
      refusal: firstRefusal,
      openSeconds,
      restMB,
      openingMB,
      idleMB,
      broadcastMB,
      idleSeconds: RSS_IDLE_SECONDS,
      broadcast: {
        writes: owners.length,
        expected: all.length,
        received,
        seconds: broadcastSeconds,
      },
    };
  } finally {
    await instance.stop();
  }
}
