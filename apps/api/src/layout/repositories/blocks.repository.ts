import { Injectable } from '@nestjs/common';
import { type BlockStyle } from '@layout/contracts';
import { sqlStatement } from '../../database/sql-statement';
import { type Pending, type Round } from '../../database/unit-of-work';
import { type BlockScope, type ProjectScope } from '../layout.scopes';
import { treeWriteStatement } from './sql/changes.sql';
import { copyDocumentStatement, copyNodeStatement } from './sql/copy-node.sql';
import { deleteNodeStatement } from './sql/delete-node.sql';
import { blockJson, blocksOf, nodeBytes } from './sql/documents.sql';
import { moveNodeStatements, type MovePlacement } from './sql/move-node.sql';
import { newNodeSortKey } from './sql/new-node.sql';
import { lockedPath, ownedPath, WRITE_REVISION, WRITE_TIME } from './sql/paths.sql';
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

export interface BlockValues {
  description: string;
  style: BlockStyle;
}

type Written = { json: string; child_count: number; tree_bytes: string };
type StoredBlock = { description: string; style: string };

const READS = {
  block: new TaggedReads<BlockScope>(
    'blocks.block',
    ownedPath('block'),
    'b.revision',
    blockJson('b'),
  ),
  list: new TaggedReads<ProjectScope>(
    'blocks.list',
    ownedPath('project'),
    'p.list_revision',
    blocksOf('p'),
  ),
};

const INSERT = treeWriteStatement<ProjectScope & StoredBlock & NodeWrite, Written & { id: string }>(
  'blocks.insert',
  'block',
  {
    parents: 'one',
    with: `parent AS (
       SELECT p.id FROM projects p WHERE p.id = $projectId AND ${WRITE_REVISION} IS NOT NULL),
     inserted AS (
       INSERT INTO blocks AS b (project_id, sort_key, description, style, revision, list_revision)
       SELECT p.id,
         ${newNodeSortKey('block', 'p.id')},
         $description, $style::json, ${WRITE_REVISION}, ${WRITE_REVISION}
       FROM parent p
       RETURNING b.id, ${nodeBytes.block('b')} AS bytes, (${blockJson('b')})::text AS json)`,
    changed: `SELECT i.id, NULL::uuid, p.id, 0::bigint, i.bytes FROM inserted i, parent p`,
    select: `SELECT i.id, i.json, tp.child_count, tp.tree_bytes FROM inserted i, touched_project tp`,
  },
);

const FIND = sqlStatement<BlockScope, BlockValues & { revision: number }>(
  'blocks.find-for-write',
  `SELECT b.revision, b.description, b.style ${lockedPath('block')}`,
);

const UPDATE = treeWriteStatement<
  BlockScope & StoredBlock & NodeWrite & { changed: boolean },
  Written
>('blocks.update', 'block', {
  parents: 'one',
  with: `target AS (SELECT b.id, ${nodeBytes.block('b')} AS bytes ${lockedPath('block')}),
     updated AS (
       UPDATE blocks b SET description = $description,
         style = CASE WHEN $changed::boolean THEN $style::json ELSE b.style END,
         revision = CASE WHEN $changed::boolean OR $sortKey::bigint IS NOT NULL THEN ${WRITE_REVISION}
           ELSE b.revision END,
         updated_at = CASE WHEN $changed::boolean THEN ${WRITE_TIME} ELSE b.updated_at END,
         sort_key = COALESCE($sortKey::bigint, b.sort_key)
       FROM target t WHERE b.id = t.id AND b.project_id = $projectId
       RETURNING b.id, ${nodeBytes.block('b')} AS bytes, (${blockJson('b')})::text AS json)`,
  changed: `SELECT t.id, $projectId::uuid, $projectId::uuid, t.bytes, u.bytes
      FROM updated u JOIN target t ON t.id = u.id`,
  select: `SELECT u.json, tp.child_count, tp.tree_bytes FROM updated u, touched_project tp`,
});

const DELETE = deleteNodeStatement<BlockScope>('block');

const MOVE = moveNodeStatements<BlockScope & MovePlacement, Parameters<typeof movedNode>[0]>(
  'block',
  blockJson,
);

const COPY = copyNodeStatement<BlockScope & CopyRequest, Parameters<typeof copiedNode>[0]>('block');

const COPY_DOCUMENT = copyDocumentStatement('block', blockJson);

const stored = (block: BlockValues): StoredBlock => ({
  description: block.description,
  style: JSON.stringify(block.style),
});

/** Statements of blocks. Writes run inside a write that holds the project's lock. */
@Injectable()
export class BlocksRepository {
  /** The reads of a block and of a project's blocks, keeping what they build (CachedReads). */
  readonly reads: typeof READS;

  constructor(documents?: DocumentCache) {
    this.reads = {
      block: cachedReads(READS.block, documents),
      list: cachedReads(READS.list, documents),
    };
  }

  insert(
    round: Round,
    scope: ProjectScope,
    block: BlockValues,
    write: NodeWrite,
  ): Pending<WrittenNode & { id: string }> {
    return round.row(INSERT, { ...scope, ...stored(block), ...write }).map((row) => {
      if (!row) throw new Error('blocks.insert: the project found under the lock is gone');
      return { id: row.id, ...writtenNode(row) };
    });
  }

  findForWrite(
    round: Round,
    scope: BlockScope,
  ): Pending<(BlockValues & { revision: number }) | undefined> {
    return round.row(FIND, scope);
  }

  update(
    round: Round,
    scope: BlockScope,
    block: BlockValues,
    write: NodeWrite & { changed: boolean },
  ): Pending<WrittenNode> {
    return round.row(UPDATE, { ...scope, ...stored(block), ...write }).map((row) => {
      if (!row) throw new Error('blocks.update: the block found under the lock is gone');
      return writtenNode(row);
    });
  }

  delete(round: Round, scope: BlockScope): Pending<number | undefined> {
    return round.row(DELETE, scope).map((row) => row?.previous_revision);
  }

  /** Moves the block within its project. */
  move(round: Round, scope: BlockScope, placement: MovePlacement): Pending<MovedNode | undefined> {
    return round
      .row(MOVE.for(placement), { ...scope, ...placement })
      .map((row) => row && movedNode(row));
  }

  /** Copies the block, with everything in it, into its project. */
  copy(
    round: Round,
    scope: BlockScope,
    request: CopyRequest,
  ): { copied: Pending<CopiedNode | undefined>; json: Pending<string | undefined> } {
    return {
      copied: round.row(COPY, { ...scope, ...request }).map((row) => row && copiedNode(row)),
      json: round
        .row(COPY_DOCUMENT, { projectId: scope.projectId, copyId: request.copyId })
        .map((row) => row?.json),
    };
  }
}
