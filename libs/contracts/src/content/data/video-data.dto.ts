import { IsHttpUrl } from '../../validation/is-http-url';
import { IsOneOf } from '../../validation/is-one-of';
import { MayBeOmitted } from '../../validation/may-be-omitted';
import { VIDEO_PROVIDERS } from '../video-provider';
import type { VideoProvider } from '../video-provider';

/** Data of a `video` content. */
export class VideoDataDto {
  /**
   * Absolute http(s) URL of the video, at most 2048 characters, also once stored.
   * Stored normalised: in WHATWG URL form (`new URL(url).href`), with `(`, `)`, `'`, `"`, `\`,
   * the backtick, `<` and `>` percent-encoded, so that it goes into a CSS `url()` as it is
   * (`File:A_(b).png` is stored as `File:A_%28b%29.png`).
   * @example "https://www.youtube.com/watch?v=dQw4w9WgXcQ"
   */
  @MayBeOmitted()
  @IsHttpUrl()
  url?: string;

  /**
   * One of `youtube`, `vimeo`, `wistia`, `loom`, `file`; inferred from the URL when left out.
   * @example "youtube"
   */
  @MayBeOmitted()
  @IsOneOf(VIDEO_PROVIDERS)
  provider?: VideoProvider;
}
