import { Injectable } from '@nestjs/common';
import { type IdempotencyRequest } from '../../common/http/idempotency';
import { type RequestConditions } from '../../common/http/request-conditions';
import { type Representation } from '../../common/http/representation';
import { AssetNames } from '../../assets/asset-names';
import { Database } from '../../database/database';
import { changeOf } from '../layout.changes';
import { pathOf } from '../layout.paths';
import { type LevelScopes, type ParentScope } from '../layout.scopes';
import { listTag, nodeTag } from '../layout.tags';
import { NodesRepository } from '../repositories/nodes.repository';
import { type ChildLevel } from '../repositories/sql/tree-levels';
import { type LevelBodies, LEVELS } from './node-levels';
import { NodeWrites } from './node-writes';
import { readTagged } from './tagged-read';
import { TreeWriter } from './tree-writer';

/** What a move answers: 200 (a copy, like a create, 201). */
const MOVED = 200;

type Response<L extends ChildLevel> = LevelBodies[L]['response'];

/**
 * The nodes of the tree beneath a project, of every level (block, row, column, content): their
 * reads, and their writes (NodeWrites) each run as one unit of work behind the project's lock,
 * recorded in its history as `<level>.<kind>` at the node's path. A body may name only the
 * uploaded assets its writer may name (AssetNames).
 */
@Injectable()
export class NodesService {
  constructor(
    private readonly db: Database,
    private readonly writer: TreeWriter,
    private readonly nodes: NodesRepository,
    private readonly writes: NodeWrites,
    private readonly assets: AssetNames,
  ) {}

  /** The children of `level` of the parent of `scope`, in order. */
  list<L extends ChildLevel>(
    level: L,
    scope: ParentScope<L>,
    conditions: RequestConditions,
  ): Promise<Representation<Response<L>[]>> {
    const reads = this.nodes.reads.list[level];
    return readTagged(this.db, reads, scope, conditions, listTag, LEVELS[level].parentName);
  }

  retrieve<L extends ChildLevel>(
    level: L,
    scope: LevelScopes[L],
    conditions: RequestConditions,
  ): Promise<Representation<Response<L>>> {
    const reads = this.nodes.reads.node[level];
    return readTagged(this.db, reads, scope, conditions, nodeTag, LEVELS[level].name);
  }

  async create<L extends ChildLevel>(
    level: L,
    scope: ParentScope<L>,
    body: LevelBodies[L]['create'],
    idempotency?: IdempotencyRequest,
  ): Promise<Representation<Response<L>>> {
    const named = await this.assets.nameable(scope.accountId, body);
    const change = changeOf(level, 'create', pathOf.list(level, scope));
    const work = this.assets.held(named, this.writes.create(level, scope, body));
    return this.writer.write(scope, change, work, idempotency);
  }

  async update<L extends ChildLevel>(
    level: L,
    scope: LevelScopes[L],
    body: LevelBodies[L]['update'],
    conditions: RequestConditions,
  ): Promise<Representation<Response<L>>> {
    const named = await this.assets.nameable(scope.accountId, body);
    const change = changeOf(level, 'update', pathOf.node(level, scope));
    const work = this.assets.held(named, this.writes.update(level, scope, body, conditions));
    return this.writer.write(scope, change, work);
  }

  async delete<L extends ChildLevel>(
    level: L,
    scope: LevelScopes[L],
    conditions: RequestConditions,
  ): Promise<Representation<never>> {
    const change = changeOf(level, 'delete', pathOf.node(level, scope));
    return this.writer.write(scope, change, this.writes.delete(level, scope, conditions));
  }

  async move<L extends ChildLevel>(
    level: L,
    scope: LevelScopes[L],
    body: LevelBodies[L]['move'],
    conditions: RequestConditions,
    idempotency?: IdempotencyRequest,
  ): Promise<Representation<Response<L>>> {
    const change = changeOf(level, 'move', pathOf.node(level, scope));
    const work = this.writes.move(level, scope, body, conditions);
    return this.writer.write(scope, change, work, idempotency, MOVED);
  }

  async duplicate<L extends ChildLevel>(
    level: L,
    scope: LevelScopes[L],
    body: LevelBodies[L]['duplicate'],
    conditions: RequestConditions,
    idempotency?: IdempotencyRequest,
  ): Promise<Representation<Response<L>>> {
    const change = changeOf(level, 'duplicate', pathOf.node(level, scope));
    const work = this.writes.duplicate(level, scope, body, conditions);
    return this.writer.write(scope, change, work, idempotency);
  }
}
