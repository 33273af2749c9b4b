import { ContentBodyDto } from '../content/content-body.dto';
import { AcceptsReadMembers } from './read-member';

/** A content inside a tree that a create makes, as a read shows it: its `_id` ignored. */
@AcceptsReadMembers()
export class ContentTreeDto extends ContentBodyDto {
  /** Ignored, as every member a read adds: the new content gets a new id. */
  _id?: string;
}
