import { BlockResponse } from '../block/block.response';
import { ProjectSummaryResponse } from './project-summary.response';

/** A project with its whole subtree: blocks, their rows, columns and contents. */
export class ProjectResponse extends ProjectSummaryResponse {
  /** The project's blocks, in order. */
  blocks!: BlockResponse[];
}
