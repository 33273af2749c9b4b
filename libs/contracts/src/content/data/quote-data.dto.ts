import { MayBeOmitted } from '../../validation/may-be-omitted';
import { NestedObject } from '../../validation/nested-object';
import { ToInstanceOf } from '../../validation/to-instance';
import { QuoteContentDto } from './quote-content.dto';
import { QuoteOptionsDto } from './quote-options.dto';

/** Data of a `quote` content: a price quote. */
export class QuoteDataDto {
  /** Options of the quote. */
  @MayBeOmitted()
  @ToInstanceOf(() => QuoteOptionsDto)
  @NestedObject()
  options?: QuoteOptionsDto;

  /** The quote's table of fields and items. */
  @MayBeOmitted()
  @ToInstanceOf(() => QuoteContentDto)
  @NestedObject()
  content?: QuoteContentDto;
}
