import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { interrupted, onCleanup } from './cleanup';
import { inParallel, SseStream } from './events';
import { type LatencySummary, summarize } from './history';
import { expectCall, idOf } from './http';
import { sampleUsage } from './proc-stats';
import { type ServerProcess } from './processes';
import { type Targets, writeTargets } from './targets';

// Issue 50, a team on one proposal, measured on the service: the reads of a shared project by
// an editor who does not own it (the targets of tree-editor, columns-editor, content-editor),
// the time from a `PUT …/presence` to its event on every stream of the project
// (`presence-latency`), and from a member's removal to the end of its streams
// (`member-removal`).

/** presence-latency: projects, each followed by one stream of each of its members. */
export const PRESENCE_PROJECTS = 10;
/** presence-latency: accounts, each the owner of one project and an editor of all the others. */
export const PRESENCE_ACCOUNTS = 10;
/** presence-latency: `PUT …/presence` a second, in all (each project's in turn). */
export const PRESENCE_PUTS_PER_SECOND = 20;
/** member-removal: removals (each of a member holding one stream of the project). */
export const REMOVALS = 50;
/** How long an event may take before the sample counts as lost. */
const LOST_AFTER_MS = 5_000;

const PASSWORD = 'correct horse battery staple';

export interface PresenceLatencyResult {
  projects: number;
  streams: number;
  putsPerSecond: number;
  seconds: number;
  /** Measured PUTs, and those that did not answer 204. */
  puts: number;
  putFailures: number;
  /** (stream, PUT) pairs owed, and those whose event arrived. */
  expected: number;
  received: number;
  /** From just before the PUT was sent to its event on a stream, ms. */
  fromSent: LatencySummary;
  rssMB: number | null;
  cpuPct: number | null;
  dbCpuPct: number | null;
}

export interface MemberRemovalResult {
  removals: number;
  /** Streams that ended (of one per removal). */
  ended: number;
  /** From just before the DELETE was sent to the end of the member's stream, ms. */
  fromSent: LatencySummary;
  /** The DELETE's own answer, ms. */
  answer: LatencySummary;
}

interface Account {
  id: string;
  username: string;
  token: string;
}

async function signUp(url: string, label: string, i: number): Promise<Account> {
  const username = `bench-${label}-${i}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const created = await expectCall(201, url, 'POST', '/accounts', {
    body: { username, password: PASSWORD },
  });
  const reply = await expectCall(200, url, 'POST', '/accounts/auth/token', {
    body: { username, password: PASSWORD },
  });
  return { id: idOf(created), username, token: (reply.body as { token: string }).token };
}

function addMember(url: string, owner: string, project: string, member: Account, role: string) {
  return expectCall(201, url, 'POST', `/projects/${project}/members`, {
    token: owner,
    body: { username: member.username, role },
  });
}

/**
 * The service's targets with the token of an editor of every read project, signed up for it:
 * load.mjs then reads the same projects as their owner does, as a member who does not own them.
 */
export async function editorTargets(
  url: string,
  targets: Targets,
  tempDir: string,
): Promise<string> {
  const editor = await signUp(url, 'editor', 0);
  const projects = [...new Set([...targets.projects, targets.read.project])];
  await inParallel(projects, 4, (project) =>
    addMember(url, targets.token, project, editor, 'editor'),
  );
  const file = join(tempDir, 'service-targets-editor.json');
  await writeTargets(file, { ...targets, token: editor.token });
  return file;
}

interface Team {
  accounts: Account[];
  /** Each project's id and the paths of its nodes (where a member may say it is). */
  projects: { id: string; places: string[] }[];
}

/** PRESENCE_ACCOUNTS accounts, each owning a project with a tree, each an editor of the others. */
async function newTeam(url: string): Promise<Team> {
  const accounts = await inParallel(
    Array.from({ length: PRESENCE_ACCOUNTS }, (_, i) => i),
    4,
    (i) => signUp(url, 'presence', i),
  );
  const projects = await inParallel(accounts.slice(0, PRESENCE_PROJECTS), 4, async (owner) => {
    const post = (path: string, body: object) =>
      expectCall(201, url, 'POST', path, { token: owner.token, body });
    const id = idOf(await post('/projects', { title: 'Team proposal' }));
    const block = `/projects/${id}/blocks/${idOf(await post(`/projects/${id}/blocks`, { description: 'b' }))}`;
    const row = `${block}/rows/${idOf(await post(`${block}/rows`, {}))}`;
    const column = `${row}/columns/${idOf(await post(`${row}/columns`, { size: 12 }))}`;
    const content = `${column}/contents/${idOf(await post(`${column}/contents`, { type: 'empty' }))}`;
    for (const member of accounts.filter((account) => account !== owner)) {
      await addMember(url, owner.token, id, member, 'editor');
    }
    return { id, places: [block, row, column, content] };
  });
  return { accounts, projects };
}

function openStream(url: string, project: string, token: string): SseStream {
  const stream = new SseStream(url, `/projects/${project}/events`, token);
  onCleanup('close the bench’s event streams', () => stream.close());
  return stream;
}

/** Whether a presence event's data shows `account` at `location`, in `state`. */
const shows = (account: Account, location: string, state: string) => (data: string) =>
  (
    JSON.parse(data) as {
      present: { account: { _id: string }; location: string | null; state: string }[];
    }
  ).present.some(
    (entry) =>
      entry.account._id === account.id && entry.location === location && entry.state === state,
  );

/**
 * `presence-latency`: PRESENCE_ACCOUNTS fresh accounts, each owning one of PRESENCE_PROJECTS
 * projects and an editor of the others, each with a stream of every project open (100 streams).
 * A member of each project in turn says where it is (`PUT …/presence`, another node or state
 * each time), PRESENCE_PUTS_PER_SECOND in all, for a warm-up, then the measured seconds. Every
 * (stream, measured PUT) pair is a sample: from just before the PUT was sent to the first
 * presence event on that stream that shows it.
 */
export async function measurePresenceLatency(
  server: ServerProcess,
  settings: { duration: number; warmup: number },
  dbpid: number | undefined,
  log: (message: string) => void,
): Promise<PresenceLatencyResult> {
  const { url } = server;
  const team = await newTeam(url);
  const streams = team.projects.map((project) =>
    team.accounts.map((account) => openStream(url, project.id, account.token)),
  );
  await Promise.all(streams.flat().map((stream) => stream.opened));
  log(`  ${streams.flat().length} streams open over ${team.projects.length} projects`);
  const period = (team.projects.length / PRESENCE_PUTS_PER_SECOND) * 1000;
  const begin = performance.now();
  // Long enough for every pooled connection to have planned the presence statements once.
  const measureFrom = begin + Math.max(3, settings.warmup) * 1000;
  const end = measureFrom + settings.duration * 1000;
  const samples: number[] = [];
  let puts = 0;
  let putFailures = 0;
  let expected = 0;
  const sampling: { stop?: ReturnType<typeof sampleUsage> } = {};
  const starter = setTimeout(
    () => (sampling.stop = sampleUsage(server.pid, dbpid)),
    measureFrom - begin,
  );
  await Promise.all(
    team.projects.map(async (project, p) => {
      let next = begin + (p * period) / team.projects.length;
      for (let n = 0; ; n++) {
        const wait = next - performance.now();
        if (wait > 0) await sleep(wait);
        next += period;
        const sent = performance.now();
        if (sent >= end || interrupted()) return;
        const member = team.accounts[n % team.accounts.length];
        const location = project.places[n % project.places.length];
        const state = n % 2 === 0 ? 'editing' : 'viewing';
        const seen = streams[p].map((stream) =>
          Promise.race([
            stream.nextPresence(shows(member, location, state)),
            sleep(LOST_AFTER_MS).then(() => undefined),
          ]),
        );
        const answer = await fetch(`${url}/projects/${project.id}/presence`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${member.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ location, state }),
        });
        await answer.arrayBuffer();
        const measuredPut = sent >= measureFrom;
        if (answer.status !== 204) {
          if (measuredPut) putFailures++;
          continue;
        }
        const arrivals = await Promise.all(seen);
        if (!measuredPut) continue;
        puts++;
        expected += arrivals.length;
        for (const at of arrivals) if (at !== undefined) samples.push(at - sent);
      }
    }),
  );
  clearTimeout(starter);
  const used = sampling.stop?.((performance.now() - measureFrom) / 1000);
  streams.flat().forEach((stream) => stream.close());
  const result: PresenceLatencyResult = {
    projects: team.projects.length,
    streams: streams.flat().length,
    putsPerSecond: PRESENCE_PUTS_PER_SECOND,
    seconds: settings.duration,
    puts,
    putFailures,
    expected,
    received: samples.length,
    fromSent: summarize(samples),
    rssMB: used?.rssMB ?? null,
    cpuPct: used?.cpuPct ?? null,
    dbCpuPct: used?.dbCpuPct ?? null,
  };
  log(
    `  ${result.received} of ${result.expected} presence events; from the PUT sent p50 ` +
      `${result.fromSent.p50} ms, p99 ${result.fromSent.p99} ms`,
  );
  return result;
}

/**
 * `member-removal`: an owner's project and REMOVALS fresh members, one at a time: the member
 * is added, opens a stream of the project (and waits for its first event), then the owner
 * removes it. Each removal is a sample: from just before the DELETE was sent to the end of the
 * member's stream, as this process sees the connection close.
 */
export async function measureMemberRemoval(
  server: ServerProcess,
  log: (message: string) => void,
): Promise<MemberRemovalResult> {
  const { url } = server;
  const [owner, ...members] = await inParallel(
    Array.from({ length: Math.min(REMOVALS, 20) + 1 }, (_, i) => i),
    4,
    (i) => signUp(url, 'removal', i),
  );
  const project = idOf(
    await expectCall(201, url, 'POST', '/projects', {
      token: owner.token,
      body: { title: 'Removals' },
    }),
  );
  const ends: number[] = [];
  const answers: number[] = [];
  for (let i = 0; i < REMOVALS && !interrupted(); i++) {
    // Members come back: a removed account may be added again.
    const member = members[i % members.length];
    await addMember(url, owner.token, project, member, 'viewer');
    const stream = openStream(url, project, member.token);
    const first = stream.nextPresence(() => true);
    await stream.opened;
    await first;
    const sent = performance.now();
    await expectCall(204, url, 'DELETE', `/projects/${project}/members/${member.id}`, {
      token: owner.token,
    });
    answers.push(performance.now() - sent);
    const ended = await Promise.race([stream.ended, sleep(LOST_AFTER_MS).then(() => undefined)]);
    stream.close();
    if (ended !== undefined) ends.push(ended - sent);
  }
  const result: MemberRemovalResult = {
    removals: answers.length,
    ended: ends.length,
    fromSent: summarize(ends),
    answer: summarize(answers),
  };
  log(
    `  ${result.ended} of ${result.removals} streams ended; from the DELETE sent p50 ` +
      `${result.fromSent.p50} ms, p99 ${result.fromSent.p99} ms (the DELETE answered in p99 ` +
      `${result.answer.p99} ms)`,
  );
  return result;
}
