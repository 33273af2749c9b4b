import { ContentBodyDto } from '../content/content-body.dto';
import { READ_ID, ReadMember } from './read-member';

/** A content inside a tree that a create makes: as a read shows it, its `_id` ignored. */
export class ContentTreeDto extends ContentBodyDto {
  /** Ignored: the new content gets a new id. */
  @ReadMember(READ_ID)
  _id?: string;
}
