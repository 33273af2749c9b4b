import { IsCurrencyCode } from '../../validation/is-currency-code';
import { MayBeOmitted } from '../../validation/may-be-omitted';

/** The currency a quote assumes when its options do not name one. */
export const DEFAULT_QUOTE_CURRENCY = 'USD';

/** Options of a quote. */
export class QuoteOptionsDto {
  /**
   * ISO 4217 currency code (capitals); left out, `USD`, which the stored quote then names.
   * @example "EUR"
   */
  @MayBeOmitted()
  @IsCurrencyCode()
  currency?: string;
}
