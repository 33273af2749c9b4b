import { type BlockStyle, type ContentStyle, type ContentType } from '@layout/contracts';
import { type ContentData } from '../layout.records';
import { type ChildLevel } from './sql/tree-levels';

/** What a node of each level stores besides its id, parent and place (TREE_LEVELS' members). */
export interface NodeValues {
  block: { description: string; style: BlockStyle };
  row: { description: string };
  column: { size: number };
  content: { type: ContentType; style: ContentStyle; data: ContentData };
}

/** What an update sets: each member given, or null to keep it. */
export type NodeChanges<L extends ChildLevel> = {
  [K in keyof NodeValues[L]]: NodeValues[L][K] | null;
};
