import { Injectable } from '@nestjs/common';
import { type SqlStatement } from '../../database/sql-statement';
import { type Pending } from '../../database/unit-of-work';
import { type ContentRecord, type ContentWrite } from '../layout.records';
import { type LockedRound } from '../locked-round';
import { type NodeChanges, type NodeValues } from './node-values';
import {
  type ColumnScope,
  type LevelScopes,
  type NodeScope,
  type ParentScope,
} from '../layout.scopes';
import { cachedReads } from './cached-reads';
import { DocumentCache } from './document-cache';
import { FIND_CONTENTS, REPLACE_CONTENTS } from './sql/column-contents.sql';
import { PARENT_RULE_COLUMNS } from './sql/column-width.sql';
import { copyDocumentStatement, copyNodeStatement } from './sql/copy-node.sql';
import { deleteNodeStatement } from './sql/delete-node.sql';
import { childrenJson, nodeJson } from './sql/documents.sql';
import { memberPath } from './sql/paths.sql';
import { type PlaceKind, placeNodeStatement, PLACEMENTS_USED } from './sql/place-node.sql';
import { TaggedReads } from './sql/tagged-reads';
import {
  CHILD_LEVELS,
  type ChildLevel,
  parentOf,
  statementName,
  TREE_LEVELS,
} from './sql/tree-levels';
import {
  eachParam,
  insertNodeStatement,
  pathParams,
  updateEachStatement,
  type UpdatedEachRow,
  updateNodeStatement,
} from './sql/write-node.sql';
import { bound, type NewSubtree, subtreeParams } from './new-subtree';
import {
  type CopiedNode,
  copiedNode,
  type CopyRequest,
  type InsertedNode,
  insertedNode,
  type PlacedNode,
  placedNode,
  type UpdatedNode,
  updatedNode,
} from './written-node';

/**
 * Where a placement puts a node, and how it finds it (see placeNodeStatement): a node on the
 * request's path to the end or to a position (a move, an update), a node the write made to a
 * position or right after a sibling (a create, a copy). `toParentId` is the parent it goes to;
 * null: the one it is in.
 */
export type Placement =
  | { find: 'path'; to: 'end'; toParentId: string | null }
  | { find: 'path' | 'id'; to: 'position'; toParentId: string | null; position: number }
  | { find: 'id'; to: 'after'; toParentId: string | null; afterId: string };

/** A column as the plan of its new contents needs it: its tag, width and contents. */
export interface ColumnForWrite {
  revision: number;
  size: number;
  /** Summed size of the row's other columns. */
  others: number;
  contents: ContentRecord[];
}

type Params = Record<string, unknown>;
type Statement<R> = SqlStatement<Params, R>;

/** A statement's parameters: the ids of a scope and the values beside them. */
const paramsOf = (...parts: object[]): Params => Object.assign({}, ...parts) as Params;

/** The statements of one level, each built from the level's entry in TREE_LEVELS. */
interface LevelStatements {
  insert: Statement<Parameters<typeof insertedNode>[0]>;
  update: Statement<Parameters<typeof updatedNode>[0]>;
  updateEach: Statement<UpdatedEachRow>;
  delete: Statement<{ previous_revision: number }>;
  copy: Statement<Parameters<typeof copiedNode>[0]>;
  copyDocument: SqlStatement<{ projectId: string; copyId: string }, { json: string }>;
  place: Record<PlaceKind, Statement<Parameters<typeof placedNode>[0]>>;
}

function levelStatements(level: ChildLevel): LevelStatements {
  const rule = PARENT_RULE_COLUMNS[level];
  return {
    insert: insertNodeStatement(level, rule.insert),
    update: updateNodeStatement(level, rule.update),
    updateEach: updateEachStatement(level),
    delete: deleteNodeStatement(level),
    copy: copyNodeStatement(level, rule.copy),
    copyDocument: copyDocumentStatement(level),
    place: Object.fromEntries(
      PLACEMENTS_USED.map(([find, to]) => [
        `${find}-${to}`,
        placeNodeStatement(level, find, to, rule.place),
      ]),
    ) as LevelStatements['place'],
  };
}

const STATEMENTS = Object.fromEntries(
  CHILD_LEVELS.map((level) => [level, levelStatements(level)]),
) as Record<ChildLevel, LevelStatements>;

/** The reads of a node, and of the list its parent holds, of every level. */
type NodeReads = { [L in ChildLevel]: TaggedReads<NodeScope<L>> };
type ListReads = { [L in ChildLevel]: TaggedReads<ParentScope<L>> };

const READS = {
  node: Object.fromEntries(
    CHILD_LEVELS.map((level) => {
      const { alias } = TREE_LEVELS[level];
      return [
        level,
        new TaggedReads(
          statementName(level, 'read'),
          memberPath(level),
          `${alias}.revision`,
          nodeJson(level, alias),
        ),
      ];
    }),
  ) as NodeReads,
  list: Object.fromEntries(
    CHILD_LEVELS.map((level) => {
      const parent = parentOf(level);
      const { alias } = TREE_LEVELS[parent];
      return [
        level,
        new TaggedReads(
          statementName(level, 'list'),
          memberPath(parent),
          `${alias}.list_revision`,
          childrenJson(parent, alias),
        ),
      ];
    }),
  ) as ListReads,
};

function boundValues(values: object): Params {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, bound(value)]));
}

/**
 * The statements of the nodes of every level (blocks, rows, columns, contents), made from the
 * table of levels. Every write takes a LockedRound: it runs behind the project's lock.
 */
@Injectable()
export class NodesRepository {
  /** The reads of a node and of its parent's list, keeping what they build (CachedReads). */
  readonly reads: { node: NodeReads; list: ListReads };

  constructor(documents?: DocumentCache) {
    const cached = <R extends Record<ChildLevel, TaggedReads<never>>>(reads: R): R =>
      Object.fromEntries(
        CHILD_LEVELS.map((level) => [level, cachedReads(reads[level], documents)]),
      ) as R;
    this.reads = { node: cached(READS.node), list: cached(READS.list) };
  }

  /**
   * Appends a node of `level` with `values` under the parent of `scope`, with the id that
   * `scope` names, and `subtree` beneath it; undefined when the parent is not on the path.
   */
  insert<L extends ChildLevel>(
    write: LockedRound,
    level: L,
    scope: LevelScopes[L],
    values: NodeValues[L],
    subtree?: NewSubtree,
  ): Pending<InsertedNode | undefined> {
    const params = paramsOf(scope, boundValues(values), subtreeParams(level, subtree));
    return write.row(STATEMENTS[level].insert, params).map((row) => row && insertedNode(row));
  }

  /** Sets the members given (see updateNodeStatement); undefined when it is not on the path. */
  update<L extends ChildLevel>(
    write: LockedRound,
    level: L,
    scope: LevelScopes[L],
    changes: NodeChanges<L>,
  ): Pending<UpdatedNode | undefined> {
    return write
      .row(STATEMENTS[level].update, paramsOf(scope, boundValues(changes)))
      .map((row) => row && updatedNode(row));
  }

  /**
   * Sets the members each update gives, of nodes of `level` that all differ, in one statement
   * (see updateEachStatement): what each reports, in order, undefined where no node is on its
   * path.
   */
  updateEach<L extends ChildLevel>(
    write: LockedRound,
    level: L,
    projectId: string,
    updates: readonly { scope: LevelScopes[L]; changes: NodeChanges<L> }[],
  ): Pending<(UpdatedNode | undefined)[]> {
    const params: Params = { projectId };
    for (const name of pathParams(level)) {
      params[eachParam(name)] = updates.map(
        ({ scope }) => (scope as unknown as Record<string, string>)[name],
      );
    }
    for (const { column } of TREE_LEVELS[level].members) {
      params[eachParam(column)] = updates.map(({ changes }) =>
        bound((changes as Record<string, unknown>)[column]),
      );
    }
    return write
      .rows(STATEMENTS[level].updateEach, params)
      .map((rows) =>
        rows.map((row) =>
          row.previous_revision === null
            ? undefined
            : updatedNode({ ...row, previous_revision: row.previous_revision }),
        ),
      );
  }

  /** The deleted node's revision, or undefined when there was none on the path. */
  delete<L extends ChildLevel>(
    write: LockedRound,
    level: L,
    scope: LevelScopes[L],
  ): Pending<number | undefined> {
    return write
      .row(STATEMENTS[level].delete, paramsOf(scope))
      .map((row) => row?.previous_revision);
  }

  /** Places the node (see placeNodeStatement); undefined when it is not found. */
  place<L extends ChildLevel>(
    write: LockedRound,
    level: L,
    scope: LevelScopes[L],
    placement: Placement,
  ): Pending<PlacedNode | undefined> {
    const { find, to, toParentId } = placement;
    const params = paramsOf(scope, {
      toParentId,
      position: placement.to === 'position' ? placement.position : null,
      afterId: placement.to === 'after' ? placement.afterId : null,
    });
    return write
      .row(STATEMENTS[level].place[`${find}-${to}`], params)
      .map((row) => row && placedNode(row));
  }

  /**
   * Copies the node, with its subtree, to the end of `toParentId` (null: its own parent), with
   * `copyId` as the copy's id, and reads the copy's document in the same round.
   */
  copy<L extends ChildLevel>(
    write: LockedRound,
    level: L,
    scope: LevelScopes[L],
    request: CopyRequest & { toParentId: string | null },
  ): { copied: Pending<CopiedNode | undefined>; json: Pending<string | undefined> } {
    const statements = STATEMENTS[level];
    return {
      copied: write
        .row(statements.copy, paramsOf(scope, request))
        .map((row) => row && copiedNode(row)),
      json: write
        .row(statements.copyDocument, { projectId: scope.projectId, copyId: request.copyId })
        .map((row) => row?.json),
    };
  }

  /** The column with its contents, for the plan of its new list; undefined when not on the path. */
  findColumnContents(write: LockedRound, scope: ColumnScope): Pending<ColumnForWrite | undefined> {
    return write.row(FIND_CONTENTS, scope).map(
      (row) =>
        row && {
          revision: row.revision,
          size: row.size,
          others: row.others,
          contents: row.contents ?? [],
        },
    );
  }

  /**
   * Makes the column's contents exactly `contents`, in one statement. Answers the project's
   * size after it (undefined when nothing changed).
   */
  replaceContents(
    write: LockedRound,
    scope: ColumnScope,
    contents: readonly ContentWrite[],
  ): Pending<number | undefined> {
    return write
      .row(REPLACE_CONTENTS, {
        ...scope,
        ids: contents.map((content) => content.id ?? null),
        types: contents.map((content) => content.type),
        styles: contents.map((content) => JSON.stringify(content.style)),
        datas: contents.map((content) => JSON.stringify(content.data)),
      })
      .map((row) => (row?.tree_bytes == null ? undefined : Number(row.tree_bytes)));
  }
}
