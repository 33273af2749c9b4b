import { type ContentStyle, type ContentType } from '@layout/contracts';

/** A content as the services handle it: plain data. */
export interface ContentRecord {
  id: string;
  type: ContentType;
  style: ContentStyle;
  data: ContentData;
}

export type ContentData = Record<string, unknown>;

/** A content as it is written: `id` set to update that content in place, absent to create one. */
export interface ContentWrite {
  id?: string;
  type: ContentType;
  style: ContentStyle;
  data: ContentData;
}
