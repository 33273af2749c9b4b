/**
 * A row of a quote's table: its `id` plus one value per field id. `quantity` and `price`, where
 * present, are numbers of at least 0.
 */
export interface QuoteItem {
  id: string;
  [fieldId: string]: string | number | boolean;
}
