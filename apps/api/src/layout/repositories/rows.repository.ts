import { Injectable } from '@nestjs/common';
import { type SqlSession } from '../../database/sql-session';
import { sqlStatement } from '../../database/sql-statement';
import { type BlockScope, type RowScope } from '../layout.scopes';
import { deleteNodeStatement } from './sql/delete-node.sql';
import { jsonBytes, nodeBytes, rowJson, rowShell, rowsOf } from './sql/documents.sql';
import { lockedPath, ownedPath, WRITE_REVISION } from './sql/paths.sql';
import { TaggedReads } from './sql/tagged-reads';
import { insertedDelta, newNodeSortKey } from './sql/new-node.sql';
import { touchAncestors } from './sql/touch.sql';
import { type NodeWrite, type WrittenNode, writtenNode } from './written-node';

export interface RowValues {
  description: string;
}

type Written = { json: string; child_count: number; tree_bytes: string };

const INSERT = sqlStatement<BlockScope & RowValues & NodeWrite, Written & { id: string }>(
  'row.insert',
  `WITH parent AS (SELECT b.id, b.child_count ${lockedPath('block')}),
   inserted AS (
     INSERT INTO rows AS r (project_id, block_id, sort_key, description, revision, list_revision)
     SELECT $projectId, p.id,
       ${newNodeSortKey('row', 'p.id')},
       $description, ${WRITE_REVISION}, ${WRITE_REVISION}
     FROM parent p
     RETURNING r.id, ${nodeBytes.row('r')} AS bytes, (${rowJson('r')})::text AS json),
   ${insertedDelta()},
   ${touchAncestors('block')}
   SELECT i.id, i.json, tb.child_count, tp.tree_bytes
   FROM inserted i, touched_block tb, touched_project tp`,
);

const FIND = sqlStatement<RowScope, RowValues & { revision: number }>(
  'row.find-for-write',
  `SELECT r.revision, r.description ${lockedPath('row')}`,
);

const UPDATE = sqlStatement<RowScope & RowValues & NodeWrite & { changed: boolean }, Written>(
  'row.update',
  `WITH target AS (SELECT r.id, ${jsonBytes(rowShell('r'))} AS bytes ${lockedPath('row')}),
   updated AS (
     UPDATE rows r SET description = $description,
       revision = CASE WHEN $changed::boolean THEN ${WRITE_REVISION} ELSE r.revision END,
       sort_key = COALESCE($sortKey::bigint, r.sort_key)
     FROM target t WHERE r.id = t.id AND r.project_id = $projectId
     RETURNING ${jsonBytes(rowShell('r'))} AS bytes, (${rowJson('r')})::text AS json),
   delta AS (SELECT u.bytes - t.bytes AS bytes, 0 AS count FROM updated u, target t),
   ${touchAncestors('block')}
   SELECT u.json, tb.child_count, tp.tree_bytes
   FROM updated u, touched_block tb, touched_project tp`,
);

const DELETE = deleteNodeStatement<RowScope>('row');

/** Statements of rows. Writes run inside a write that holds the project's lock. */
@Injectable()
export class RowsRepository {
  readonly reads = {
    row: new TaggedReads<RowScope>('row', ownedPath('row'), 'r.revision', rowJson('r')),
    list: new TaggedReads<BlockScope>('rows', ownedPath('block'), 'b.list_revision', rowsOf('b')),
  };

  /** A new row; undefined when the block is not on the path. */
  async insert(
    tx: SqlSession,
    scope: BlockScope,
    row: RowValues,
    write: NodeWrite,
  ): Promise<(WrittenNode & { id: string }) | undefined> {
    const inserted = await tx.row(INSERT, { ...scope, ...row, ...write });
    return inserted && { id: inserted.id, ...writtenNode(inserted) };
  }

  findForWrite(
    tx: SqlSession,
    scope: RowScope,
  ): Promise<(RowValues & { revision: number }) | undefined> {
    return tx.row(FIND, scope);
  }

  async update(
    tx: SqlSession,
    scope: RowScope,
    row: RowValues,
    write: NodeWrite & { changed: boolean },
  ): Promise<WrittenNode> {
    const updated = await tx.row(UPDATE, { ...scope, ...row, ...write });
    if (!updated) throw new Error('row.update: the row found under the lock is gone');
    return writtenNode(updated);
  }

  async delete(tx: SqlSession, scope: RowScope): Promise<number | undefined> {
    return (await tx.row(DELETE, scope))?.previous_revision;
  }
}
