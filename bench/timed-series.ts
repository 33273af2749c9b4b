/**
 * One large write (a whole tree posted, a project copied) timed several times one after
 * another: each time and status, and what the service used over them. The import's and the
 * copy's results are each one of these, reported and judged alike.
 */
export interface TimedSeries {
  /** Nodes one write makes: the project and everything in it. */
  nodes: number;
  /** Bytes of what is written: the posted body, or the original's `GET /projects/<id>`. */
  bytes: number;
  /** Each write's time, from request to answer, in seconds, in order. */
  seconds: number[];
  statuses: number[];
  /** The service's peak RSS over the writes, and before them. */
  rssMB: number | null;
  rssBeforeMB: number | null;
  /** CPU % of the server and of PostgreSQL over the writes. */
  cpuPct: number | null;
  dbCpuPct: number | null;
}

/** The series' times in order, and the middle one. */
export function sortedTimes(series: TimedSeries): { sorted: number[]; median: number } {
  const sorted = [...series.seconds].sort((a, b) => a - b);
  return { sorted, median: sorted[Math.floor(sorted.length / 2)] };
}
