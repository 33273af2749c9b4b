import { type BatchResult } from './batch';
import { type BenchConfig, type ScenarioName } from './config';
import { type Environment } from './environment';
import { type EventsLatencyResult, type EventsRssResult } from './events';
import { type FairnessResult } from './fairness';
import { type ServiceGrowth } from './growth';
import { type ScenarioResult, type Side } from './measure';
import { type HistoryBytesResult, type HistoryReadsResult } from './history';
import { type PlanCheck } from './plans';
import { type ProjectCopyResult } from './project-copy';
import { type SqlCounts } from './sql-counts';
import { type MemberRemovalResult, type PresenceLatencyResult } from './team';

/** Everything a run measured: rendered by report.ts, and saved as it is in the .json. */
export interface RunResults {
  date: string;
  config: BenchConfig;
  environment: Environment;
  postgres: string;
  database: string;
  /** Whether the database's CPU could be sampled (a postmaster on this machine). */
  dbCpu: boolean;
  /** When dist/ was built (the run uses a private copy of it). */
  serviceBuiltAt: string;
  yardstick: { source: string; hash: string; packages: Record<string, string> };
  seed: {
    serviceSeconds: number;
    yardstickSeconds: number;
    serviceContents: number;
    yardstickContents: number;
  };
  main: ScenarioResult[];
  /** The `fairness` scenario (service only), when it ran. */
  fairness?: FairnessResult;
  /** The `batch` scenario (service only), when it ran. */
  batch?: BatchResult;
  /** The `project-copy` scenario (service only), when it ran. */
  projectCopy?: ProjectCopyResult;
  /** The history and live-change scenarios (service only), each when it ran. */
  historyBytes?: HistoryBytesResult;
  historyReads?: HistoryReadsResult;
  eventsLatency?: EventsLatencyResult;
  eventsRss?: EventsRssResult;
  /** The team scenarios of issue 50 (service only), each when it ran. */
  presenceLatency?: PresenceLatencyResult;
  memberRemoval?: MemberRemovalResult;
  sql: SqlCounts[];
  growth: {
    steps: GrowthStep[];
    runs: GrowthRun[];
    plans: { scenario: string; service: PlanCheck[]; yardstick: PlanCheck[] }[];
  };
  totalSeconds: number;
}

export interface GrowthStep {
  target: number;
  service: ServiceGrowth;
  serviceSeconds: number;
  yardstick: { contents: number; seconds: number };
}

export type GrowthRun = ScenarioResult & { contents: number };

export const measured = (side: Side | string | undefined): side is Side =>
  side !== undefined && typeof side !== 'string';

/**
 * The yardstick's numbers a scenario is compared with (conditional and compressed: its plain
 * tree).
 */
export function reference(result: ScenarioResult, phase: ScenarioResult[]): Side | undefined {
  if (!versusTree(result.scenario)) return result.yardstick;
  return phase.find((other) => other.scenario === 'tree')?.yardstick;
}

/** Scenarios of the service alone compared with the yardstick's tree. */
export const versusTree = (scenario: string) =>
  ['conditional', 'compressed', 'render', 'shared', 'assets'].includes(scenario);

export const ratio = (a: number, b: number) => (b > 0 ? a / b : NaN);

export const LABELS: Record<ScenarioName, string> = {
  tree: 'tree: whole project',
  columns: "columns: a row's columns",
  content: 'content: one content',
  create: 'create: new content',
  resize: 'resize: column size',
  mixed: 'mixed: 80 % reads, 20 % writes',
  conditional: 'conditional: tree with If-None-Match (vs yardstick tree)',
  compressed: 'compressed: tree with Accept-Encoding (vs yardstick tree)',
  render: 'render: each project as a page, unchanged (vs yardstick tree)',
  shared: 'shared: a share link of each project opened (vs yardstick tree)',
  assets: 'assets: an image as large as a project read (vs yardstick tree)',
  move: 'move: a content to another column (vs yardstick resize)',
  'move-many': 'move-many: moves over one project per connection (vs yardstick resize)',
  duplicate: 'duplicate: a block of 31 nodes (vs yardstick create)',
  import: 'import: the seed’s project of 90 contents posted whole (vs yardstick tree)',
  batch: 'batch: 10 content updates in one batch against 10 single updates',
  fairness: 'fairness: another account’s small read beside 20 reads of 8 MiB',
  'project-copy': 'project-copy: a project of about 20 000 nodes copied',
  'history-bytes': 'history-bytes: what one revision stores',
  'history-reads': 'history-reads: a past state and a restore beside the current read',
  'events-latency': 'events-latency: commit to event with 100 open streams',
  'events-rss': 'events-rss: one instance holding 1 000 open streams',
  'tree-editor': 'tree-editor: whole project, read by an editor who does not own it',
  'columns-editor': "columns-editor: a row's columns, read by an editor",
  'content-editor': 'content-editor: one content, read by an editor',
  'presence-latency': 'presence-latency: a presence to its event on 100 streams',
  'member-removal': "member-removal: a removal to the end of the member's streams",
};
