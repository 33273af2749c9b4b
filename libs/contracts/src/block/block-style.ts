import { ContentStyle, DEFAULT_CONTENT_STYLE } from '../content/content-style';

/** The complete style of a block, as stored and returned: a content's style plus a colour. */
export interface BlockStyle extends ContentStyle {
  backgroundColor: string;
}

/** What a response carries for each block style member a client never set. */
export const DEFAULT_BLOCK_STYLE: Readonly<BlockStyle> = Object.freeze({
  ...DEFAULT_CONTENT_STYLE,
  backgroundColor: 'rgba(255, 255, 255, 1)',
});
