import { TEXT_HTML_MAX_LENGTH } from '../../limits';
import { IsStringOfLength } from '../../validation/is-string-of-length';
import { MayBeOmitted } from '../../validation/may-be-omitted';

/** Data of a `text` content. */
export class TextDataDto {
  /**
   * HTML of at most 100 000 characters. It is stored sanitised: scripts, event-handler
   * attributes, `javascript:` URLs and embedded frames are removed; ordinary formatting is kept.
   * @example "<p>Hello <strong>world</strong></p>"
   */
  @MayBeOmitted()
  @IsStringOfLength(0, TEXT_HTML_MAX_LENGTH)
  html?: string;
}
