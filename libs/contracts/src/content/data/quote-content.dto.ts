import { QUOTE_FIELDS_MAX } from '../../limits';
import { HasUniqueIds } from '../../validation/has-unique-ids';
import { IsQuoteItems } from '../../validation/is-quote-items';
import { MayBeOmitted } from '../../validation/may-be-omitted';
import { NestedObjectList } from '../../validation/nested-object';
import { AsSent, ToInstancesOf } from '../../validation/to-instance';
import { QuoteFieldDto } from './quote-field.dto';
import type { QuoteItem } from './quote-item';

/** The table of a quote: its columns (`fields`) and rows (`items`). */
export class QuoteContentDto {
  /**
   * At most 20 fields with distinct ids.
   * @example [{ "id": "name", "label": "Item", "show": true }, { "id": "quantity", "label": "Quantity", "show": true }, { "id": "price", "label": "Price", "show": true }]
   */
  @MayBeOmitted()
  @ToInstancesOf(() => QuoteFieldDto)
  @NestedObjectList(QUOTE_FIELDS_MAX)
  @HasUniqueIds()
  fields?: QuoteFieldDto[];

  /**
   * At most 1000 items. Each has a string `id` (1 to 100 characters) and, per field id, a value
   * that is a string (at most 10 000 characters), a number or a boolean; when `fields` is given,
   * no other keys. `quantity` and `price`, where present, are numbers of at least 0.
   * @example [{ "id": "1", "name": "Design", "quantity": 2, "price": 500 }]
   */
  @MayBeOmitted()
  @AsSent()
  @IsQuoteItems()
  items?: QuoteItem[];
}
