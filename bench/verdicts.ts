import { EDITS, isEdit, type PairedScenario } from './config';
import { type FairnessResult } from './fairness';
import { type ScenarioResult, type Side } from './measure';
import { measured, ratio, reference, type RunResults, versusTree } from './results';

export interface Verdict {
  target: string;
  measured: string;
  status: 'pass' | 'FAIL' | 'n/a';
}

/**
 * Service ÷ yardstick throughput each scenario must reach (conditional and compressed: ÷ the
 * yardstick's tree; move: ÷ its resize). A copy of 31 nodes has no floor against a create of
 * one: it is measured, not judged.
 */
export const THROUGHPUT: Partial<Record<PairedScenario, number>> = {
  tree: 0.85,
  columns: 0.7,
  content: 0.7,
  create: 0.7,
  resize: 0.7,
  mixed: 0.7,
  conditional: 2,
  compressed: 0.85,
  move: 2,
};
const P99_RATIO = 2;
/** A move's p99 ÷ the yardstick's resize p99. */
export const MOVE_P99_RATIO = 1.5;
/** Scenarios whose p99 is not set against the yardstick's: they do other work than it. */
const P99_UNJUDGED: ReadonlySet<string> = new Set(['duplicate']);
/** A copy of a project of about 20 000 nodes, on the PostgreSQL server (its median). */
export const PROJECT_COPY_SECONDS = 2;
/** fairness: the other account's p99 beside the greedy one ÷ its p99 alone. */
export const FAIRNESS_P99_RATIO = 2;
const RSS_MIB = 250;

const x = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : 'n/a');
const status = (ok: boolean): Verdict['status'] => (ok ? 'pass' : 'FAIL');

export function verdicts(results: RunResults): Verdict[] {
  const { main } = results;
  const growth = results.growth.runs;
  const list: Verdict[] = [];
  for (const [scenario, floor] of Object.entries(THROUGHPUT) as [PairedScenario, number][]) {
    const versus = versusTree(scenario)
      ? "the yardstick's plain tree"
      : isEdit(scenario)
        ? `the yardstick's ${EDITS[scenario]}`
        : 'the yardstick';
    const target = `${scenario}: throughput ≥ ${floor}× ${versus}`;
    const result = main.find((r) => r.scenario === scenario);
    const y = result && reference(result, main);
    if (!result) list.push({ target, measured: 'not run', status: 'n/a' });
    else if (!measured(result.service))
      list.push({ target, measured: result.service, status: 'n/a' });
    else if (!y)
      list.push({
        target,
        measured: `no yardstick ${versusTree(scenario) ? 'tree ' : ''}run`,
        status: 'n/a',
      });
    else {
      const r = ratio(result.service.rps, y.rps);
      list.push({
        target,
        measured: `${x(r)} (${result.service.rps} ÷ ${y.rps} req/s)`,
        status: status(r >= floor),
      });
    }
  }
  list.push(
    p99Verdict(`p99 ≤ ${P99_RATIO}× the yardstick's, every scenario (duplicate: measured only)`, [
      main,
    ]),
  );
  list.push(moveP99Verdict(main));
  if (growth.length > 0) {
    const phases = [...new Set(growth.map((run) => run.contents))].map((contents) =>
      growth.filter((run) => run.contents === contents),
    );
    list.push(p99Verdict(`p99 ≤ ${P99_RATIO}× the yardstick's, growth runs`, phases));
  }
  // The load scenarios' target. A copy of a whole project (6 MiB) and the fairness run's 8 MiB
  // answers are single large answers: their peaks are reported beside them, not judged here.
  const sampled = [...main, ...growth]
    .map((r) => r.service)
    .filter(measured)
    .flatMap((side) => (side.rssMB === null ? [] : [side.rssMB]));
  list.push({
    target: `service peak RSS ≤ ${RSS_MIB} MiB under the load scenarios`,
    measured: sampled.length > 0 ? `${Math.max(...sampled)} MiB` : 'not sampled',
    status: sampled.length > 0 ? status(Math.max(...sampled) <= RSS_MIB) : 'n/a',
  });
  const all = [...main, ...growth].flatMap((r) => [r.service, r.yardstick]).filter(measured);
  const failures = (get: (side: Side) => number) => all.reduce((sum, side) => sum + get(side), 0);
  const [non2xx, errors, warmup] = [
    failures((s) => s.non2xx),
    failures((s) => s.errors),
    failures((s) => s.warmupFailures),
  ];
  list.push({
    target: 'no non-2xx and no errors anywhere (conditional: every answer 304)',
    measured: `${non2xx} non-2xx (or non-304), ${errors} errors, ${warmup} in write warm-ups`,
    status: status(non2xx + errors + warmup === 0),
  });
  list.push(...fairnessVerdicts(results.fairness));
  list.push(projectCopyVerdict(results));
  return list;
}

/** A move's p99 against the yardstick's resize, which does the same work: one statement. */
function moveP99Verdict(main: ScenarioResult[]): Verdict {
  const target = `move: p99 ≤ ${MOVE_P99_RATIO}× the yardstick's resize p99`;
  const result = main.find((r) => r.scenario === 'move');
  const y = result && reference(result, main);
  if (!result || !measured(result.service) || !y) {
    return { target, measured: 'not run', status: 'n/a' };
  }
  const r = ratio(result.service.p99, y.p99);
  return {
    target,
    measured: `${x(r)} (${result.service.p99} ÷ ${y.p99} ms)`,
    status: status(r <= MOVE_P99_RATIO),
  };
}

/** The time to copy a project of about 20 000 nodes: judged on the PostgreSQL server only. */
function projectCopyVerdict(results: RunResults): Verdict {
  const target = `project-copy: a project of about 20 000 nodes copied in ≤ ${PROJECT_COPY_SECONDS} s (median; on the PostgreSQL server)`;
  const copy = results.projectCopy;
  if (!copy) return { target, measured: 'not run', status: 'n/a' };
  const sorted = [...copy.seconds].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const failed = copy.statuses.filter((s) => s !== 201).length;
  const range = `${sorted[0].toFixed(2)}–${sorted[sorted.length - 1].toFixed(2)} s`;
  const rss =
    copy.rssMB === null ? '' : `, peak RSS ${copy.rssMB} MiB (${copy.rssBeforeMB ?? '?'} before)`;
  const measuredText = `median ${median.toFixed(2)} s of ${copy.seconds.length} (${range}), ${copy.nodes} nodes${rss}${failed > 0 ? `, ${failed} not 201` : ''}`;
  const onServer = results.config.serverUrl !== undefined;
  return {
    target,
    measured: onServer ? measuredText : `${measuredText}; embedded: not judged`,
    status: !onServer ? 'n/a' : status(failed === 0 && median <= PROJECT_COPY_SECONDS),
  };
}

/** The service alone: another account's small read, alone and beside the greedy account's. */
function fairnessVerdicts(fairness: FairnessResult | undefined): Verdict[] {
  const latency = `fairness: another account's read p99 ≤ ${FAIRNESS_P99_RATIO}× its p99 alone, while one account reads 8 MiB in 20 connections`;
  const clean = 'fairness: no errors for the other account (every read 200)';
  if (!fairness) {
    return [
      { target: latency, measured: 'not run', status: 'n/a' },
      { target: clean, measured: 'not run', status: 'n/a' },
    ];
  }
  const { unloaded, loaded } = fairness;
  const r = ratio(loaded.p99, unloaded.p99);
  const failed = unloaded.non200 + unloaded.errors + loaded.non200 + loaded.errors;
  return [
    {
      target: latency,
      measured: `${x(r)} (${loaded.p99} ÷ ${unloaded.p99} ms)`,
      status: Number.isFinite(r) ? status(r <= FAIRNESS_P99_RATIO) : 'n/a',
    },
    {
      target: clean,
      measured:
        `${loaded.non200} not 200, ${loaded.errors} errors of ${loaded.requests} beside the ` +
        `greedy account; ${unloaded.non200} / ${unloaded.errors} of ${unloaded.requests} alone`,
      status: status(failed === 0 && loaded.requests > 0),
    },
  ];
}

/** The worst p99 ratio over the runs, each compared within its own phase. */
function p99Verdict(target: string, phases: ScenarioResult[][]): Verdict {
  let worst = { value: NaN, label: '' };
  let count = 0;
  for (const phase of phases) {
    for (const result of phase) {
      const y = reference(result, phase);
      if (!measured(result.service) || !y || P99_UNJUDGED.has(result.scenario)) continue;
      const value = ratio(result.service.p99, y.p99);
      if (!Number.isFinite(value)) continue;
      count++;
      if (!(worst.value >= value)) worst = { value, label: result.scenario };
    }
  }
  if (count === 0) return { target, measured: 'no pairs', status: 'n/a' };
  return {
    target,
    measured: `worst ${x(worst.value)} (${worst.label})`,
    status: status(worst.value <= P99_RATIO),
  };
}
