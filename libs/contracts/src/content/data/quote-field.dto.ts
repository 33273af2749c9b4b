import { QUOTE_FIELD_ID_MAX_LENGTH, QUOTE_FIELD_LABEL_MAX_LENGTH } from '../../limits';
import { IsBooleanValue } from '../../validation/is-boolean-value';
import { IsNotReservedKey } from '../../validation/is-not-reserved-key';
import { IsStringOfLength } from '../../validation/is-string-of-length';
import { MayBeOmitted } from '../../validation/may-be-omitted';

/** A column of a quote's table; each item holds one value per field id. */
export class QuoteFieldDto {
  /**
   * Identifier of the field, 1 to 100 characters, unique among the fields; items use it as a key.
   * @example "price"
   */
  @IsStringOfLength(1, QUOTE_FIELD_ID_MAX_LENGTH)
  @IsNotReservedKey()
  id!: string;

  /**
   * Column heading, at most 200 characters.
   * @example "Price"
   */
  @MayBeOmitted()
  @IsStringOfLength(0, QUOTE_FIELD_LABEL_MAX_LENGTH)
  label?: string;

  /**
   * Whether the column is shown.
   * @example true
   */
  @MayBeOmitted()
  @IsBooleanValue()
  show?: boolean;
}
