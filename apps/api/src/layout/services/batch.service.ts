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
import { type NodeWork, NodeWrites } from './node-writes';
import { TreeWriter } from './tree-writer';

/** What a batch did: each operation's answer, and its status. */
interface Ran {
  readonly status: number;
  readonly answer: Representation<unknown>;
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
        return mapStep(ran, (results) => answerOf(write.project.get(), results));
      },
      idempotency,
      200,
    );
  }

  /**
   * Each operation as a unit of work, in order: its path and body resolved and checked before
   * the lock, as its route would, and a refusal kept for its turn (an earlier operation's
   * refusal goes first, as it would if they were sent one by one).
   */
  private async plan(
    scope: ProjectScope,
    operations: readonly BatchOperationDto[],
  ): Promise<((write: LockedRound) => Step<Ran>)[]> {
    const refs = new BatchRefs();
    const works: ((write: LockedRound) => Step<Ran>)[] = [];
    for (const [index, operation] of operations.entries()) {
      let work: (write: LockedRound) => Step<Ran>;
      try {
        work = await this.planOne(scope, operation, refs, `/operations/${index}`);
      } catch (refusal) {
        work = (write) => write.finish<Ran>(() => failed(index, refusal));
      }
      works.push(attributed(index, work));
    }
    return works;
  }

  private async planOne(
    scope: ProjectScope,
    operation: BatchOperationDto,
    refs: BatchRefs,
    pointer: string,
  ): Promise<(write: LockedRound) => Step<Ran>> {
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
      return ran(status, this.writes.delete(level, path as LevelScopes[ChildLevel], conditions));
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
    await this.assets.assertNameable(scope.accountId, body);
    const made = newNodeId();
    if (operation.ref !== undefined) refs.define(operation.ref, made);
    return ran(status, this.workOf(kind, level, path, body, conditions, made));
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
function attributed(
  index: number,
  work: (write: LockedRound) => Step<Ran>,
): (write: LockedRound) => Step<Ran> {
  return (write) => {
    let step: Step<Ran>;
    try {
      step = work(write);
    } catch (refusal) {
      return write.finish<Ran>(() => failed(index, refusal));
    }
    return mapStep(
      step,
      (value) => value,
      (refusal) => failed(index, refusal),
    );
  };
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
