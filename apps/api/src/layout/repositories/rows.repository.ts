import { Injectable } from '@nestjs/common';
import { sqlStatement } from '../../database/sql-statement';
import { type Pending, type Round } from '../../database/unit-of-work';
import { type BlockScope, type RowScope } from '../layout.scopes';
import { treeWriteStatement } from './sql/changes.sql';
import { copyDocumentStatement, copyNodeStatement } from './sql/copy-node.sql';
import { deleteNodeStatement } from './sql/delete-node.sql';
import { nodeBytes, rowJson, rowsOf } from './sql/documents.sql';
import { moveNodeStatements, type MovePlacement } from './sql/move-node.sql';
import { newNodeSortKey } from './sql/new-node.sql';
import { lockedPath, ownedPath, WRITE_REVISION } from './sql/paths.sql';
import { TaggedReads } from './sql/tagged-reads';
import { cachedReads } from './cached-reads';
import { DocumentCache } from './document-cache';
import {
  type CopyRequest,
  copiedNode,
  type CopiedNode,
  movedNode,
  type MovedNode,
  type NodeWrite,
  type WrittenNode,
  writtenNode,
} from './written-node';

export interface RowValues {
  description: string;
}

type Written = { json: string; child_count: number; tree_bytes: string };

const READS = {
  row: new TaggedReads<RowScope>('rows.row', ownedPath('row'), 'r.revision', rowJson('r')),
  list: new TaggedReads<BlockScope>(
    'rows.list',
    ownedPath('block'),
    'b.list_revision',
    rowsOf('b'),
  ),
};

const INSERT = treeWriteStatement<BlockScope & RowValues & NodeWrite, Written & { id: string }>(
  'rows.insert',
  'row',
  {
    parents: 'one',
    with: `parent AS (SELECT b.id ${lockedPath('block')}),
     inserted AS (
       INSERT INTO rows AS r (project_id, block_id, sort_key, description, revision, list_revision)
       SELECT $projectId, p.id,
         ${newNodeSortKey('row', 'p.id')},
         $description, ${WRITE_REVISION}, ${WRITE_REVISION}
       FROM parent p
       RETURNING r.id, ${nodeBytes.row('r')} AS bytes, (${rowJson('r')})::text AS json)`,
    changed: `SELECT i.id, NULL::uuid, p.id, 0::bigint, i.bytes FROM inserted i, parent p`,
    select: `SELECT i.id, i.json, tb.child_count, tp.tree_bytes
     FROM inserted i, touched_block tb, touched_project tp`,
  },
);

const FIND = sqlStatement<RowScope, RowValues & { revision: number }>(
  'rows.find-for-write',
  `SELECT r.revision, r.description ${lockedPath('row')}`,
);

const UPDATE = treeWriteStatement<RowScope & RowValues & NodeWrite & { changed: boolean }, Written>(
  'rows.update',
  'row',
  {
    parents: 'one',
    with: `target AS (SELECT r.id, r.block_id, ${nodeBytes.row('r')} AS bytes ${lockedPath('row')}),
     updated AS (
       UPDATE rows r SET description = $description,
         revision = CASE WHEN $changed::boolean OR $sortKey::bigint IS NOT NULL THEN ${WRITE_REVISION}
           ELSE r.revision END,
         sort_key = COALESCE($sortKey::bigint, r.sort_key)
       FROM target t WHERE r.id = t.id AND r.project_id = $projectId
       RETURNING r.id, ${nodeBytes.row('r')} AS bytes, (${rowJson('r')})::text AS json)`,
    changed: `SELECT t.id, t.block_id, t.block_id, t.bytes, u.bytes
      FROM updated u JOIN target t ON t.id = u.id`,
    select: `SELECT u.json, tb.child_count, tp.tree_bytes
     FROM updated u, touched_block tb, touched_project tp`,
  },
);

const DELETE = deleteNodeStatement<RowScope>('row');

const MOVE = moveNodeStatements<RowScope & MovePlacement, Parameters<typeof movedNode>[0]>(
  'row',
  rowJson,
);

const COPY = copyNodeStatement<
  RowScope & CopyRequest & { toParentId: string | null },
  Parameters<typeof copiedNode>[0]
>('row');

const COPY_DOCUMENT = copyDocumentStatement('row', rowJson);

/** Statements of rows. Writes run inside a write that holds the project's lock. */
@Injectable()
export class RowsRepository {
  /** The reads of a row and of a block's rows, keeping what they build (CachedReads). */
  readonly reads: typeof READS;

  constructor(documents?: DocumentCache) {
    this.reads = {
      row: cachedReads(READS.row, documents),
      list: cachedReads(READS.list, documents),
    };
  }

  /** A new row; undefined when the block is not on the path. */
  insert(
    round: Round,
    scope: BlockScope,
    row: RowValues,
    write: NodeWrite,
  ): Pending<(WrittenNode & { id: string }) | undefined> {
    return round
      .row(INSERT, { ...scope, ...row, ...write })
      .map((inserted) => inserted && { id: inserted.id, ...writtenNode(inserted) });
  }

  findForWrite(
    round: Round,
    scope: RowScope,
  ): Pending<(RowValues & { revision: number }) | undefined> {
    return round.row(FIND, scope);
  }

  update(
    round: Round,
    scope: RowScope,
    row: RowValues,
    write: NodeWrite & { changed: boolean },
  ): Pending<WrittenNode> {
    return round.row(UPDATE, { ...scope, ...row, ...write }).map((updated) => {
      if (!updated) throw new Error('rows.update: the row found under the lock is gone');
      return writtenNode(updated);
    });
  }

  delete(round: Round, scope: RowScope): Pending<number | undefined> {
    return round.row(DELETE, scope).map((row) => row?.previous_revision);
  }

  /** Moves the row to another block of the project (or within its own). */
  move(
    round: Round,
    scope: RowScope,
    placement: MovePlacement & { toParentId: string | null },
  ): Pending<MovedNode | undefined> {
    return round
      .row(MOVE.for(placement), { ...scope, ...placement })
      .map((row) => row && movedNode(row));
  }

  /** Copies the row, with its columns and contents, into a block of the project. */
  copy(
    round: Round,
    scope: RowScope,
    request: CopyRequest & { toParentId: string | null },
  ): { copied: Pending<CopiedNode | undefined>; json: Pending<string | undefined> } {
    return {
      copied: round.row(COPY, { ...scope, ...request }).map((row) => row && copiedNode(row)),
      json: round
        .row(COPY_DOCUMENT, { projectId: scope.projectId, copyId: request.copyId })
        .map((row) => row?.json),
    };
  }
}
