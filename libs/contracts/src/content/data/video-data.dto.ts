import { IsHttpUrl } from '../../validation/is-http-url';
import { IsOneOf } from '../../validation/is-one-of';
import { MayBeOmitted } from '../../validation/may-be-omitted';
import { VIDEO_PROVIDERS } from '../video-provider';
import type { VideoProvider } from '../video-provider';

/** Data of a `video` content. */
export class VideoDataDto {
  /**
   * Absolute http(s) URL of the video.
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
