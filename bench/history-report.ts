import { LATENCY_ACCOUNTS, RSS_ACCOUNTS, STREAMS_PER_ACCOUNT } from './events';
import {
  LARGE_SHAPE,
  type LatencySummary,
  LONE_READS,
  MOVE_REPETITIONS,
  RESTORES,
  type StoredPerRevision,
  UPDATE_REPETITIONS,
} from './history';
import { ratio, type RunResults } from './results';

// The report's sections for the history and live-change scenarios (issue 20), which measure the
// service alone; their targets are in the Targets table (verdicts.ts).

const f = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const int = (value: number) =>
  Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : 'n/a';
const x = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : 'n/a');
const opt = (value: number | null | undefined) =>
  value === null || value === undefined ? '–' : String(value);

/** A Markdown table; columns from `numeric` on are right-aligned. */
function table(head: string[], rows: string[][], numeric = 1): string {
  const cells = (row: string[]) =>
    `| ${row.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
  return [
    cells(head),
    `| ${head.map((_, i) => (i < numeric ? '---' : '---:')).join(' | ')} |`,
    ...rows.map(cells),
  ].join('\n');
}

const CASES: Record<StoredPerRevision['case'], string> = {
  'update-90': 'one-content update, 90-content project',
  'update-2000': 'one-content update, 2 000-content project',
  'move-column': 'move of a column with 20 contents (2 000-content project)',
};

const latency = (s: LatencySummary) => `${s.p50} / ${s.p99} / ${s.max}`;

export function renderHistory(results: RunResults): string[] {
  const { historyBytes: stored, historyReads: reads } = results;
  if (!stored && !reads) return [];
  const lines = ['## History (the service only)', ''];
  if (stored) {
    lines.push(
      'CONTRACT.md part two, "History and undo": what is stored for a revision grows with what ' +
        'the request changed, not with the size of the project. Two projects built through the ' +
        `API (in ${f(stored.buildSeconds)} s): one of the seed’s shape (90 contents) and one of ` +
        `${LARGE_SHAPE.blocks} blocks × ${LARGE_SHAPE.rows} rows × ${LARGE_SHAPE.columns} columns ` +
        `× ${LARGE_SHAPE.contents} texts (2 000 contents). In each, updates of one content’s ` +
        'text (~300 characters, each new), one at a time, taking 90 of its contents in the same ' +
        'turn (in the large project spread over it), so that the two series differ by the ' +
        `project’s size alone: a pass over the 90 not measured, then ${UPDATE_REPETITIONS} ` +
        `measured; in the large one also ${MOVE_REPETITIONS} moves of a column of 20 contents ` +
        'between two rows, back and forth (after two not measured). Per revision: the rows it ' +
        'added (`node_versions` rows from that revision and its `revisions` row, by ' +
        '`pg_column_size`), and the growth of both tables with their TOAST and indexes ' +
        '(`pg_total_relation_size`, from a `VACUUM FULL` of both right before the series, which leaves no free space in their pages, to its end: ' +
        'it includes the dead copy of each version a write closes and the index entries of ' +
        'both, until a vacuum frees them). The growth comes in 8 KiB pages, so over a few ' +
        'hundred revisions it is good to about ±15 %; the rows are exact.',
      '',
      table(
        [
          'Revision',
          'Version rows',
          'Version bytes',
          'Revision row bytes',
          'Rows total B',
          'On disk B (of which indexes)',
          'Write p50 / p99 ms',
        ],
        stored.cases.map((c) => [
          CASES[c.case],
          f(c.versionRows, 2),
          int(c.versionBytes),
          int(c.revisionBytes),
          int(c.versionBytes + c.revisionBytes),
          `${int(c.diskBytes)} (${int(c.indexBytes)})`,
          `${c.writeP50} / ${c.writeP99}`,
        ]),
      ),
      '',
    );
    const update = stored.cases.find((c) => c.case === 'update-2000');
    const move = stored.cases.find((c) => c.case === 'move-column');
    if (update && move) {
      lines.push(
        `- A column move stores ${x(ratio(move.versionBytes + move.revisionBytes, update.versionBytes + update.revisionBytes))} ` +
          'the rows of a one-content update (20 contents’ versions would be about ' +
          `${int(20 * update.versionBytes)} B): its contents keep their versions.`,
        '',
      );
    }
  }
  if (reads) {
    const { lone, loaded, restore } = reads;
    const beside = lone.currentBesideFirst ?? lone.current;
    lines.push(
      `A copy of the first read project (\`POST /projects/<id>/duplicate\`: the seed’s 90 ` +
        `contents, ${f(reads.bytes / 1024)} KiB as \`GET /projects/<id>\`), then ` +
        // The copy starts at revision 1: one revision per update since.
        `${reads.current - 1} one-content updates on it (revision ${reads.current}). The current ` +
        `state (\`GET /projects/<copy>\`) and the state at revision ${reads.past} ` +
        `(\`GET /projects/<copy>/revisions/${reads.past}\`, as large), first one request at a ` +
        `time, in turn, ${LONE_READS} of each (after 10 of each not counted), timed from request ` +
        `to the end of the body; then every other past state once (its first read, which builds ` +
        `it)${beside === lone.current ? '' : ', each right after a current read'}; then under ` +
        `load, autocannon with ${loaded.connections} ` +
        `connections, ${f(loaded.seconds)} s of each in two slices taken in turn, after a ` +
        `warm-up of each. Then ${RESTORES} restores (\`POST .../revisions/<n>/restore\` with ` +
        `\`If-Match\` of the previous answer, as an undo sends it), one at a time, alternately to ` +
        `revisions ${restore.revisions[0]} and ${restore.revisions[1]} (undo and redo of the ` +
        'last update: each changes one content), after 10 not counted. Peak RSS over the ' +
        `scenario: ${opt(reads.rssMB)} MiB.`,
      '',
      table(
        [
          'Request',
          'One at a time: p50 / p99 / max ms',
          'Not 200',
          `Under load (${loaded.connections} connections): req/s`,
          'p50 / p99 ms',
          'Non-200 / errors',
        ],
        [
          [
            'current state',
            latency(lone.current),
            String(lone.current.failures),
            int(loaded.current.rps),
            `${loaded.current.p50} / ${loaded.current.p99}`,
            `${loaded.current.non200} / ${loaded.current.errors}`,
          ],
          [
            `past state (revision ${reads.past})`,
            latency(lone.past),
            String(lone.past.failures),
            int(loaded.past.rps),
            `${loaded.past.p50} / ${loaded.past.p99}`,
            `${loaded.past.non200} / ${loaded.past.errors}`,
          ],
          [
            `past states, first read (${lone.pastFirst.count} others, each once)`,
            latency(lone.pastFirst),
            String(lone.pastFirst.failures),
            '–',
            '–',
            '–',
          ],
          ...(beside === lone.current
            ? []
            : [
                [
                  'current state, each right before a first read',
                  latency(beside),
                  String(beside.failures),
                  '–',
                  '–',
                  '–',
                ],
              ]),
          ['restore (undo / redo)', latency(restore), String(restore.failures), '–', '–', '–'],
        ],
      ),
      '',
      `- A past state's first read builds it, and the instance serves it again from then on ` +
        `(a past state never changes): first read ÷ current` +
        `${beside === lone.current ? '' : ' (the reads taken in turn with it)'}, p50 ` +
        `${x(ratio(lone.pastFirst.p50, beside.p50))}.`,
      `- Past ÷ current, one at a time: p50 ${x(ratio(lone.past.p50, lone.current.p50))}, p99 ` +
        `${x(ratio(lone.past.p99, lone.current.p99))}; under load the past state is read at ` +
        `${x(ratio(loaded.past.rps, loaded.current.rps))} the current read’s rate.`,
      '',
    );
  }
  return lines;
}

export function renderEvents(results: RunResults): string[] {
  const { eventsLatency: latencyRun, eventsRss: rss } = results;
  if (!latencyRun && !rss) return [];
  const lines = ['## Live changes (the service only)', ''];
  if (latencyRun) {
    const l = latencyRun;
    lines.push(
      `${LATENCY_ACCOUNTS} fresh accounts, each with a project of one text content and ` +
        `${STREAMS_PER_ACCOUNT} open streams of it (\`GET /projects/<p>/events\`, bearer token; ` +
        `${l.streams} streams in all, read by this process with raw HTTP requests). One writer ` +
        `per project updates its content at an even pace, ${l.writesPerSecond} writes a second ` +
        'in all, the writers staggered; after a warm-up whose events are not counted, ' +
        `${l.writes} writes in ${l.seconds} s are measured. Each (stream, write) pair is a ` +
        'sample: from just before the write is sent to the arrival of its event (the one whose ' +
        '`id` is the write’s `Project-Revision`) on that stream, which bounds the time from ' +
        'commit to event from above (the commit falls inside the write); and from the write’s ' +
        'answer to the event (negative when the event came first). CPU % and peak RSS over the ' +
        'measured seconds.',
      '',
      table(
        ['Samples', 'p50 / p99 / max ms', 'Pairs'],
        [
          ['from the write sent to the event', latency(l.fromSent), int(l.fromSent.count)],
          ['from the write’s answer to the event', latency(l.fromAnswer), int(l.fromAnswer.count)],
          ['the write itself (PUT content)', latency(l.write), int(l.write.count)],
        ],
      ),
      '',
      `- ${int(l.received)} of ${int(l.expected)} events arrived; ${l.disordered} out of order, ` +
        `repeated or skipped, ${l.resets} resets; ${l.writeFailures} writes failed. Service ` +
        `peak RSS ${opt(l.rssMB)} MiB, CPU % server / db ${opt(l.cpuPct)} / ${opt(l.dbCpuPct)}.`,
      '',
    );
  }
  if (rss) {
    lines.push(
      `${RSS_ACCOUNTS} fresh accounts with a project each (signed up through the main instance), ` +
        'then a fresh instance of the service on the same database, so that what earlier ' +
        'scenarios left in the main instance’s heap does not count. Its RSS at rest (1 s), while ' +
        `${rss.streams} streams (${STREAMS_PER_ACCOUNT} per account) open on it ` +
        `(${f(rss.openSeconds)} s, ${rss.opened} opened${rss.refusal ? `; first refusal: ${rss.refusal}` : ''}), ` +
        `while they are held idle (${rss.idleSeconds} s), and while one write per project through ` +
        'the main instance reaches each stream (the fresh instance learns of it by NOTIFY, as ' +
        `any instance does: ${int(rss.broadcast.received)} of ${int(rss.broadcast.expected)} ` +
        `events in ${f(rss.broadcast.seconds, 2)} s). Peak VmRSS of the process and its ` +
        'descendants, sampled every 100 ms.',
      '',
      table(
        ['Instance', 'At rest', 'Opening', 'Held idle', 'One event each'],
        [
          [
            'peak RSS MiB',
            opt(rss.restMB),
            opt(rss.openingMB),
            opt(rss.idleMB),
            opt(rss.broadcastMB),
          ],
        ],
      ),
      '',
      ...(rss.restMB !== null && rss.idleMB !== null && rss.opened > 0
        ? [
            `- ${f(rss.idleMB - rss.restMB, 0)} MiB over the instance at rest, at most ` +
              `${f(((rss.idleMB - rss.restMB) * 1024) / rss.opened)} KiB per open stream (what ` +
              'serving the requests that opened them left in the heap, and their compiled code, ' +
              'included).',
            '',
          ]
        : []),
    );
  }
  return lines;
}
