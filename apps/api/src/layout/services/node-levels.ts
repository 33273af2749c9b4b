import {
  type BlockTreeDto,
  type ColumnTreeDto,
  type ContentTreeDto,
  type RowTreeDto,
  type BlockResponse,
  type BlockStyleDto,
  BLOCKS_PER_PROJECT_MAX,
  type ColumnResponse,
  type ContentResponse,
  CONTENTS_PER_COLUMN_MAX,
  type CreateBlockDto,
  type CreateColumnDto,
  type CreateContentDto,
  type CreateRowDto,
  DEFAULT_BLOCK_STYLE,
  type DuplicateBlockDto,
  type DuplicateColumnDto,
  type DuplicateContentDto,
  type DuplicateRowDto,
  type MoveBlockDto,
  type MoveColumnDto,
  type MoveContentDto,
  type MoveRowDto,
  type RowResponse,
  ROWS_PER_BLOCK_MAX,
  type UpdateBlockDto,
  type UpdateColumnDto,
  type UpdateContentDto,
  type UpdateRowDto,
} from '@layout/contracts';
import { ContentComposer } from '../content/content-composer';
import { definedMembers } from '../content/defined-members';
import { type NodeChanges, type NodeValues } from '../repositories/node-values';
import { type ChildLevel } from '../repositories/sql/tree-levels';
import { assertFitsInRow } from './row-width';
import { assertContentData, assertWithinCount } from './tree-limits';

/** The bodies and the answer of each level's operations (libs/contracts). */
export interface LevelBodies {
  block: {
    tree: BlockTreeDto;
    create: CreateBlockDto;
    update: UpdateBlockDto;
    move: MoveBlockDto;
    duplicate: DuplicateBlockDto;
    response: BlockResponse;
  };
  row: {
    tree: RowTreeDto;
    create: CreateRowDto;
    update: UpdateRowDto;
    move: MoveRowDto;
    duplicate: DuplicateRowDto;
    response: RowResponse;
  };
  column: {
    tree: ColumnTreeDto;
    create: CreateColumnDto;
    update: UpdateColumnDto;
    move: MoveColumnDto;
    duplicate: DuplicateColumnDto;
    response: ColumnResponse;
  };
  content: {
    tree: ContentTreeDto;
    create: CreateContentDto;
    update: UpdateContentDto;
    move: MoveContentDto;
    duplicate: DuplicateContentDto;
    response: ContentResponse;
  };
}

/** What a write reports of a node's new place, for the rule its parent keeps. */
export interface PlaceReport {
  /** Children of the parent with the node. */
  siblings?: number;
  /** A column's size, and the summed size of the row's other columns. */
  size?: number;
  others?: number;
}

/** What differs from one level of the tree to another, for the node service's rules. */
export interface LevelRules<L extends ChildLevel> {
  /** The node's name and its parent's, as a 404 says them ("Content", "Column"). */
  readonly name: string;
  readonly parentName: string;
  /** The member of a move's or a copy's body that names another parent (a block has none). */
  readonly parentMember: 'blockId' | 'rowId' | 'columnId' | undefined;
  /** The rule the parent keeps once the node is in it: a count, or a row's width. */
  fits(report: PlaceReport): void;
  /**
   * What a create's body (or a node of a tree it carries, at `pointer`) stores: every member,
   * defaults filled in, HTML sanitised.
   */
  values(body: LevelBodies[L]['tree'], pointer: string): NodeValues[L];
  /** The member of a create's body that lists the node's children, and their level. */
  readonly children:
    { readonly member: 'rows' | 'columns' | 'contents'; readonly level: ChildLevel } | undefined;
  /**
   * What an update's body sets: the members given, null for the others (kept, or reset by the
   * statement: StoredMember.reset).
   */
  changes(body: LevelBodies[L]['update']): NodeChanges<L>;
}

const composer = new ContentComposer();

const withDefaults = (style: BlockStyleDto | undefined) => ({
  ...DEFAULT_BLOCK_STYLE,
  ...(style && definedMembers(style)),
});

/** The rules of each level of the tree: the node service reads everything that differs here. */
export const LEVELS: { readonly [L in ChildLevel]: LevelRules<L> } = {
  block: {
    name: 'Block',
    parentName: 'Project',
    parentMember: undefined,
    fits: ({ siblings }) => assertWithinCount(siblings ?? 0, BLOCKS_PER_PROJECT_MAX, 'A project'),
    children: { member: 'rows', level: 'row' },
    values: (body) => ({ description: body.description, style: withDefaults(body.style) }),
    // A given style replaces the stored one whole; its missing members take their defaults.
    changes: (body) => ({
      description: body.description ?? null,
      style: body.style === undefined ? null : withDefaults(body.style),
    }),
  },
  row: {
    name: 'Row',
    parentName: 'Block',
    parentMember: 'blockId',
    fits: ({ siblings }) => assertWithinCount(siblings ?? 0, ROWS_PER_BLOCK_MAX, 'A block'),
    children: { member: 'columns', level: 'column' },
    values: (body) => ({ description: body.description ?? '' }),
    changes: (body) => ({ description: body.description ?? null }),
  },
  column: {
    name: 'Column',
    parentName: 'Row',
    parentMember: 'rowId',
    fits: ({ others, size }) => assertFitsInRow(others ?? 0, size ?? 0),
    children: { member: 'contents', level: 'content' },
    values: (body) => ({ size: body.size }),
    changes: (body) => ({ size: body.size ?? null }),
  },
  content: {
    name: 'Content',
    parentName: 'Column',
    parentMember: 'columnId',
    fits: ({ siblings }) => assertWithinCount(siblings ?? 0, CONTENTS_PER_COLUMN_MAX, 'A column'),
    children: undefined,
    values: (body, pointer) => {
      const content = composer.compose(body);
      assertContentData(content.data, `${pointer}/data`);
      return content;
    },
    changes: (body) => {
      const prepared = composer.prepare(body);
      if (prepared.data) assertContentData(prepared.data, '/data');
      return { type: prepared.type, style: prepared.style ?? null, data: prepared.data ?? null };
    },
  },
};
