import { DEFAULT_QUOTE_CURRENCY, isObjectValue } from '@layout/contracts';
import { escapeHtml } from './html-text';

type Json = Record<string, unknown>;

/** How amounts are written: the page declares English, so its numbers read as English does. */
const NUMBER_LOCALE = 'en-US';

interface Field {
  readonly id: string;
  readonly label: string;
}

/**
 * A quote as a table: a header cell per visible field (`show` not false), a row per item, and,
 * when items carry both `quantity` and `price`, a footer with the total of quantity × price in
 * the quote's currency. Prices are written in that currency too. Every value is escaped.
 */
export function renderQuote(data: Json): string {
  const options = isObjectValue(data.options) ? (data.options as Json) : {};
  const content = isObjectValue(data.content) ? (data.content as Json) : {};
  const money = currencyFormat(options.currency);
  const fields = objects(content.fields)
    .filter((field) => typeof field.id === 'string' && field.show !== false)
    .map((field): Field => ({ id: field.id as string, label: stringOf(field.label) }));
  const items = objects(content.items);
  const header = fields
    .map((field) => `<th scope="col">${escapeHtml(field.label || field.id)}</th>`)
    .join('');
  const rows = items
    .map((item) => `<tr>${fields.map((field) => cell(field, item[field.id], money)).join('')}</tr>`)
    .join('\n');
  const priced = items.filter(
    (item) => isAmount(item.quantity) && isAmount(item.price),
  ) as (Json & { quantity: number; price: number })[];
  const total =
    priced.length === 0
      ? ''
      : `<tfoot><tr><th scope="row" colspan="${Math.max(fields.length - 1, 1)}">Total</th>` +
        `<td class="pl-number pl-total">${escapeHtml(
          money.format(priced.reduce((sum, item) => sum + item.quantity * item.price, 0)),
        )}</td></tr></tfoot>`;
  return (
    '<table>' +
    (header === '' ? '' : `<thead><tr>${header}</tr></thead>`) +
    `<tbody>\n${rows}\n</tbody>${total}</table>`
  );
}

function cell(field: Field, value: unknown, money: Intl.NumberFormat): string {
  if (typeof value === 'number' && Number.isFinite(value)) {
    const shown = field.id === 'price' ? money.format(value) : NUMBER.format(value);
    return `<td class="pl-number">${escapeHtml(shown)}</td>`;
  }
  if (typeof value === 'boolean') return `<td>${value ? 'Yes' : 'No'}</td>`;
  return `<td>${escapeHtml(stringOf(value))}</td>`;
}

const NUMBER = new Intl.NumberFormat(NUMBER_LOCALE, { maximumFractionDigits: 20 });

/** The quote's currency as Intl writes it; a code Intl does not know is written as a plain number with it. */
function currencyFormat(currency: unknown): Intl.NumberFormat {
  const code = typeof currency === 'string' ? currency : DEFAULT_QUOTE_CURRENCY;
  try {
    return new Intl.NumberFormat(NUMBER_LOCALE, { style: 'currency', currency: code });
  } catch {
    return new Intl.NumberFormat(NUMBER_LOCALE, { minimumFractionDigits: 2 });
  }
}

function isAmount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function objects(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter((item): item is Json => isObjectValue(item)) : [];
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
