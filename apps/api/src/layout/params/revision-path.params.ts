import { Matches } from 'class-validator';
import { REVISION_NUMBER } from '../../common/pipes/resource-id';
import { ProjectPath } from './layout-paths.params';

/** A revision of a project (a number that is not one of its kept revisions is a 404). */
export class RevisionPath extends ProjectPath {
  /** The revision's number. */
  @Matches(REVISION_NUMBER)
  revision!: string;
}
