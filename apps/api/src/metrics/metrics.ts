import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { type CommitObserver } from '../database/transaction-observers';
import { everyRefusal, refusalOf } from './refusals';

/** Units of work a group commit can hold, up to Database's most (GROUP_MAX_UNITS). */
const GROUP_COMMIT_BUCKETS = [1, 2, 3, 4, 6, 8, 12, 16, 24, 32];

/**
 * What the service itself counts, kept in a registry of its own (one per application, so that
 * two instances in one test process count apart). The features call its methods; `GET /metrics`
 * on the metrics listener shows them (metrics-server.ts), with the request durations, the pool
 * and the process's own once METRICS_PORT is set.
 */
@Injectable()
export class Metrics implements CommitObserver {
  readonly registry = new Registry();

  private readonly revisions = new Counter({
    name: 'layout_revisions_committed_total',
    help: 'Revisions that writes of a project tree committed (a new project, or a copy of one, starts at revision 1 uncounted)',
    registers: [this.registry],
  });

  private readonly groupCommits = new Histogram({
    name: 'layout_group_commit_units',
    help: 'Units of work committed by one transaction (a group commit of one project’s writes)',
    buckets: GROUP_COMMIT_BUCKETS,
    registers: [this.registry],
  });

  private readonly streams = new Gauge({
    name: 'layout_event_streams_open',
    help: 'Event streams (GET /projects/<p>/events) this instance is serving',
    registers: [this.registry],
  });

  private readonly shareLinkOpens = new Counter({
    name: 'layout_share_link_opens_total',
    help: 'Share links opened',
    registers: [this.registry],
  });

  private readonly refusals = new Counter({
    name: 'layout_refusals_total',
    help: 'Requests refused by a budget or a limit, by kind (rate_limit, admission, limit) and problem type',
    labelNames: ['kind', 'problem_type'],
    registers: [this.registry],
  });

  constructor() {
    for (const refusal of everyRefusal()) this.refusals.inc(refusal, 0);
  }

  /** A write of a project's tree committed a new revision. */
  revisionCommitted(): void {
    this.revisions.inc();
  }

  committed(units: number): void {
    this.groupCommits.observe(units);
  }

  streamOpened(): void {
    this.streams.inc();
  }

  streamClosed(): void {
    this.streams.dec();
  }

  shareLinkOpened(): void {
    this.shareLinkOpens.inc();
  }

  /** A request was answered with the problem `problemType`: counted if it is a refusal. */
  answeredProblem(problemType: string): void {
    const refusal = refusalOf(problemType);
    if (refusal !== undefined) this.refusals.inc(refusal);
  }
}
