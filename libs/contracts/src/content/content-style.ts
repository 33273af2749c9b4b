export const BACKGROUND_REPEAT_VALUES = [
  'repeat',
  'repeat-x',
  'repeat-y',
  'no-repeat',
  'space',
  'round',
] as const;

export type BackgroundRepeat = (typeof BACKGROUND_REPEAT_VALUES)[number];

/** The complete style of a content, as stored and returned. */
export interface ContentStyle {
  backgroundImage: string;
  backgroundRepeat: BackgroundRepeat;
  backgroundSize: string;
  backgroundPosition: string;
  opacity: number;
}

/** What a response carries for each style member a client never set. */
export const DEFAULT_CONTENT_STYLE: Readonly<ContentStyle> = Object.freeze({
  backgroundImage: '',
  backgroundRepeat: 'no-repeat',
  backgroundSize: 'cover',
  backgroundPosition: 'center center',
  opacity: 1,
});
