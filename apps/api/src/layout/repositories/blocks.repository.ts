import { Injectable } from '@nestjs/common';
import { type BlockStyle } from '@layout/contracts';
import { type SqlSession } from '../../database/sql-session';
import { sqlStatement } from '../../database/sql-statement';
import { type BlockScope, type ProjectScope } from '../layout.scopes';
import { deleteNodeStatement } from './sql/delete-node.sql';
import { blockJson, blockShell, blocksOf, jsonBytes, nodeBytes } from './sql/documents.sql';
import { lockedPath, ownedPath, WRITE_REVISION } from './sql/paths.sql';
import { TaggedReads } from './sql/tagged-reads';
import { insertedDelta, newNodeSortKey } from './sql/new-node.sql';
import { touchAncestors } from './sql/touch.sql';
import { type NodeWrite, type WrittenNode, writtenNode } from './written-node';

export interface BlockValues {
  description: string;
  style: BlockStyle;
}

type Written = { json: string; child_count: number; tree_bytes: string };
type StoredBlock = { description: string; style: string };

const INSERT = sqlStatement<ProjectScope & StoredBlock & NodeWrite, Written & { id: string }>(
  'block.insert',
  `WITH parent AS (
     SELECT p.id, p.child_count FROM projects p
     WHERE p.id = $projectId AND ${WRITE_REVISION} IS NOT NULL),
   inserted AS (
     INSERT INTO blocks AS b (project_id, sort_key, description, style, revision, list_revision)
     SELECT p.id,
       ${newNodeSortKey('block', 'p.id')},
       $description, $style::json, ${WRITE_REVISION}, ${WRITE_REVISION}
     FROM parent p
     RETURNING b.id, ${nodeBytes.block('b')} AS bytes, (${blockJson('b')})::text AS json),
   ${insertedDelta()},
   ${touchAncestors('project')}
   SELECT i.id, i.json, tp.child_count, tp.tree_bytes FROM inserted i, touched_project tp`,
);

const FIND = sqlStatement<BlockScope, BlockValues & { revision: number }>(
  'block.find-for-write',
  `SELECT b.revision, b.description, b.style ${lockedPath('block')}`,
);

const UPDATE = sqlStatement<BlockScope & StoredBlock & NodeWrite & { changed: boolean }, Written>(
  'block.update',
  `WITH target AS (SELECT b.id, ${jsonBytes(blockShell('b'))} AS bytes ${lockedPath('block')}),
   updated AS (
     UPDATE blocks b SET description = $description,
       style = CASE WHEN $changed::boolean THEN $style::json ELSE b.style END,
       revision = CASE WHEN $changed::boolean THEN ${WRITE_REVISION} ELSE b.revision END,
       updated_at = CASE WHEN $changed::boolean THEN now() ELSE b.updated_at END,
       sort_key = COALESCE($sortKey::bigint, b.sort_key)
     FROM target t WHERE b.id = t.id AND b.project_id = $projectId
     RETURNING ${jsonBytes(blockShell('b'))} AS bytes, (${blockJson('b')})::text AS json),
   delta AS (SELECT u.bytes - t.bytes AS bytes, 0 AS count FROM updated u, target t),
   ${touchAncestors('project')}
   SELECT u.json, tp.child_count, tp.tree_bytes FROM updated u, touched_project tp`,
);

const DELETE = deleteNodeStatement<BlockScope>('block');

const stored = (block: BlockValues): StoredBlock => ({
  description: block.description,
  style: JSON.stringify(block.style),
});

/** Statements of blocks. Writes run inside a write that holds the project's lock. */
@Injectable()
export class BlocksRepository {
  readonly reads = {
    block: new TaggedReads<BlockScope>('block', ownedPath('block'), 'b.revision', blockJson('b')),
    list: new TaggedReads<ProjectScope>(
      'blocks',
      ownedPath('project'),
      'p.list_revision',
      blocksOf('p'),
    ),
  };

  async insert(
    tx: SqlSession,
    scope: ProjectScope,
    block: BlockValues,
    write: NodeWrite,
  ): Promise<WrittenNode & { id: string }> {
    const row = await tx.row(INSERT, { ...scope, ...stored(block), ...write });
    if (!row) throw new Error('block.insert: the project found under the lock is gone');
    return { id: row.id, ...writtenNode(row) };
  }

  findForWrite(
    tx: SqlSession,
    scope: BlockScope,
  ): Promise<(BlockValues & { revision: number }) | undefined> {
    return tx.row(FIND, scope);
  }

  async update(
    tx: SqlSession,
    scope: BlockScope,
    block: BlockValues,
    write: NodeWrite & { changed: boolean },
  ): Promise<WrittenNode> {
    const row = await tx.row(UPDATE, { ...scope, ...stored(block), ...write });
    if (!row) throw new Error('block.update: the block found under the lock is gone');
    return writtenNode(row);
  }

  async delete(tx: SqlSession, scope: BlockScope): Promise<number | undefined> {
    return (await tx.row(DELETE, scope))?.previous_revision;
  }
}
