import { Injectable } from '@nestjs/common';
import {
  type BatchDto,
  type BatchOperationDto,
  type BatchResponse,
  validateBody,
} from '@layout/contracts';
import { AssetNames } from '../../assets/asset-names';
import { RequestValidationError } from '../../common/errors';
import { BatchOperationFailedError } from '../errors';
import { type IdempotencyRequest } from '../../common/http/idempotency';
import { RequestConditions } from '../../common/http/request-conditions';
import { Representation } from '../../common/http/representation';
import { SerializedJson } from '../../common/json/serialized-json';
import { inSequence, mapStep, type Step } from '../../database/unit-of-work';
import { pathOf } from '../layout.paths';
import { type LevelScopes, type ProjectScope } from '../layout.scopes';
import { nodeTag } from '../layout.tags';
import { type LockedProject, type LockedRound } from '../locked-round';
import { type ChildLevel } from '../repositories/sql/tree-levels';
import {
  addressedBy,
  assertShape,
  BatchRefs,
  OPERATION_BODIES,
  OPERATION_STATUS,
  refusedShape,
  resolveBodyRefs,
  resolvedIds,
} from './batch-operations';
import { newNodeId } from './body-ids';
import { type MemberUpdate, type NodeWork, NodeWrites, updatedNodeId } from './node-writes';
import { TreeWriter } from './tree-writer';

/** What a batch did: each operation's answer, and its status. */
interface Ran {
  readonly status: number;
  readonly answer: Representation<unknown>;
}

/** The work of one or more operations in a row, answering what each ran to. */
type BatchWork = (write: LockedRound) => Step<Ran[]>;

/** An operation planned: its work, and the update of members it is, if that is all it is. */
interface Planned {
  readonly index: number;
  readonly work: (write: LockedRound) => Step<Ran>;
  readonly update?: MemberUpdate;
}

/**
 * Several writes of one project's tree as one (`POST /projects/<p>/batch`): each operation is
 * the node write its route runs (NodeWrites), checked as if it were sent alone at its turn, all
 * of them in one unit of work behind the project's lock, so one transaction and one revision
 * (the history's `batch`), all or nothing. A refused operation is answered with its own problem
 * and its index; so is a part of the batch that no route would take.
 */
@Injectable()
export class BatchService {
  constructor(
    private readonly writer: TreeWriter,
    private readonly writes: NodeWrites,
    private readonly assets: AssetNames,
  ) {}

  async apply(
    scope: ProjectScope,
    batch: BatchDto,
    conditions: RequestConditions,
    idempotency?: IdempotencyRequest,
  ): Promise<Representation<BatchResponse>> {
    const works = await this.plan(scope, batch.operations);
    const change = { operation: 'batch', path: pathOf.project(scope), least: 'editor' } as const;
    return this.writer.write(
      scope,
      change,
      (write) => {
        const ran = inSequence(write, works).checkedFirst(() =>
          conditions.assertPreconditions(nodeTag(write.project.get().currentRevision)),
        );
        return mapStep(ran, (results) => answerOf(write.project.get(), results.flat()));
      },
      idempotency,
      200,
    );
  }

  /**
   * Each operation as a unit of work, in order: its path and body resolved and checked before
   * the lock, as its route would, and a refusal kept for its turn (an earlier operation's
   * refusal goes first, as it would if they were sent one by one). Updates of members alone of
   * distinct nodes of one level, one after another, run as one statement (NodeWrites.updateEach).
   */
  private async plan(
    scope: ProjectScope,
    operations: readonly BatchOperationDto[],
  ): Promise<BatchWork[]> {
    const refs = new BatchRefs();
    const planned: Planned[] = [];
    for (const [index, operation] of operations.entries()) {
      try {
        planned.push({
          index,
          ...(await this.planOne(scope, operation, refs, `/operations/${index}`)),
        });
      } catch (refusal) {
        planned.push({ index, work: (write) => write.finish<Ran>(() => failed(index, refusal)) });
      }
    }
    return updateRuns(planned).map((run) =>
      run.length === 1 ? one(run[0]) : this.updatesInOne(run),
    );
  }

  /** Updates of members (`run`, two or more) in one statement, each refusal its operation's. */
  private updatesInOne(run: readonly Planned[]): BatchWork {
    const first = run[0].index;
    const work = this.writes.updateEach(run.map(({ update }) => update!));
    return attributed(first, (write) =>
      mapStep(work(write), (settled) =>
        settled.map((outcome, k) =>
          'refusal' in outcome
            ? failed(run[k].index, outcome.refusal)
            : { status: OPERATION_STATUS.update, answer: outcome.answer },
        ),
      ),
    );
  }

  private async planOne(
    scope: ProjectScope,
    operation: BatchOperationDto,
    refs: BatchRefs,
    pointer: string,
  ): Promise<Omit<Planned, 'index'>> {
    const addressed = addressedBy(operation.method, operation.path);
    assertShape(operation, addressed?.kind, refs, pointer);
    const { kind, level } = addressed!;
    const ids = resolvedIds(addressed!, refs, `${pointer}/path`);
    if (ids.projectId !== scope.projectId) {
      throw refusedShape(`${pointer}/path`, 'must be a path inside the batch’s project');
    }
    const path = { accountId: scope.accountId, ...ids };
    const conditions = RequestConditions.fromHeaders({ 'if-match': operation.ifMatch });
    const status = OPERATION_STATUS[kind];
    if (kind === 'delete') {
      return {
        work: ran(status, this.writes.delete(level, path as LevelScopes[ChildLevel], conditions)),
      };
    }
    // The body as the operation alone would send it: each `$<ref>` it names resolved first, so
    // that a ref is checked wherever it stands, even in a member the operation ignores.
    const sent =
      operation.body === undefined
        ? undefined
        : (JSON.parse(JSON.stringify(operation.body)) as Record<string, unknown>);
    if (sent !== undefined) resolveBodyRefs(level, sent, refs, `${pointer}/body`);
    const checked = await validateBody(OPERATION_BODIES[level][kind], sent);
    if (!checked.ok) throw new RequestValidationError(checked.errors);
    const body = checked.value as Record<string, unknown>;
    const named = await this.assets.nameable(scope.accountId, body);
    const made = newNodeId();
    if (operation.ref !== undefined) refs.define(operation.ref, made);
    // An update that names assets runs alone: it holds them (AssetNames.held) in its own turn.
    const update =
      kind === 'update' && named.assets.length === 0
        ? this.writes.memberUpdate(level, path as LevelScopes[ChildLevel], body, conditions)
        : undefined;
    if (update !== undefined)
      return { work: ran(status, this.writes.updateMembers(update)), update };
    const work = this.workOf(kind, level, path, body, conditions, made);
    return { work: ran(status, this.assets.held(named, work)) };
  }

  private workOf(
    kind: 'create' | 'update' | 'move' | 'duplicate',
    level: ChildLevel,
    path: object,
    body: object,
    conditions: RequestConditions,
    made: string,
  ): NodeWork<unknown> {
    const scope = path as LevelScopes[ChildLevel];
    switch (kind) {
      case 'create':
        return this.writes.create(level, scope, body, made);
      case 'update':
        return this.writes.update(level, scope, body, conditions);
      case 'move':
        return this.writes.move(level, scope, body, conditions);
      case 'duplicate':
        return this.writes.duplicate(level, scope, body, conditions, made);
    }
  }
}

/** A node's write, with the status its route answers. */
function ran(status: number, work: NodeWork<unknown>): (write: LockedRound) => Step<Ran> {
  return (write) => mapStep(work(write), (answer) => ({ status, answer }));
}

function failed(index: number, refusal: unknown): never {
  throw refusal instanceof BatchOperationFailedError
    ? refusal
    : new BatchOperationFailedError(index, refusal);
}

/** `work`, any refusal of it (sending or ruling) told as the refusal of operation `index`. */
function attributed<T>(
  index: number,
  work: (write: LockedRound) => Step<T>,
): (write: LockedRound) => Step<T> {
  return (write) => {
    let step: Step<T>;
    try {
      step = work(write);
    } catch (refusal) {
      return write.finish<T>(() => failed(index, refusal));
    }
    return mapStep(
      step,
      (value) => value,
      (refusal) => failed(index, refusal),
    );
  };
}

/** One operation's work, as a batch's work. */
function one({ index, work }: Planned): BatchWork {
  return attributed(index, (write) => mapStep(work(write), (answer) => [answer]));
}

/**
 * The operations in order, cut into runs: each update of members alone in a run with the
 * updates of members of its level right before it, as long as their nodes differ (a second
 * update of a node must see the first's answer); every other operation a run of its own.
 */
function updateRuns(planned: readonly Planned[]): Planned[][] {
  const runs: Planned[][] = [];
  let run: Planned[] = [];
  let ids = new Set<string>();
  for (const item of planned) {
    const { update } = item;
    const id = update && updatedNodeId(update);
    const joins =
      update !== undefined &&
      run.length > 0 &&
      run[0].update?.level === update.level &&
      !ids.has(id!);
    if (!joins) {
      if (run.length > 0) runs.push(run);
      run = [];
      ids = new Set();
    }
    run.push(item);
    if (id !== undefined) ids.add(id);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/**
 * The batch's answer: the revision it made (the one its lock prepared, if any operation wrote,
 * else the current one) with each operation's status, `Location`, tag and body, the bodies as
 * the operations built them.
 */
function answerOf(project: LockedProject, results: readonly Ran[]): Representation<BatchResponse> {
  const wrote = results.some(({ answer }) => answer.headers.projectRevision === project.revision);
  const revision = wrote ? project.revision : project.currentRevision;
  const items = results.map(({ status, answer }) => {
    const { location, etag } = answer.headers;
    const head = JSON.stringify({ status, location, etag });
    const body = answer.body?.text;
    return body === undefined ? head : `${head.slice(0, -1)},"body":${body}}`;
  });
  const json = `{"revision":${revision},"results":[${items.join(',')}]}`;
  return Representation.of(new SerializedJson<BatchResponse>(json), {
    etag: nodeTag(revision),
    projectRevision: revision,
  });
}
