import { Matches } from 'class-validator';
import { RESOURCE_ID } from '../../common/pipes/resource-id';
import { ProjectPath } from '../../layout/params/layout-paths.params';

/** A share link of a project (a malformed id is a 404, as for every id). */
export class LinkPath extends ProjectPath {
  /** Id of the share link. */
  @Matches(RESOURCE_ID)
  linkId!: string;
}

/** A share link's URL: its token (any other string is a link that does not exist). */
export class SharedPath {
  /** The link's token, as its URL holds it. */
  token!: string;
}
