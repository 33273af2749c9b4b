import { BlockResponse } from '../block/block.response';
import { ProjectHeadResponse } from './project-summary.response';

/** A project with its whole subtree: blocks, their rows, columns and contents. */
export class ProjectResponse extends ProjectHeadResponse {
  /** The project's blocks, in order. */
  blocks!: BlockResponse[];
}
