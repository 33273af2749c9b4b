import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { QUOTE_FIELDS_MAX, QUOTE_ITEMS_MAX } from '../../limits';
import { validateBody } from '../../validation/validate-body';
import {
  CONTRACT_TRANSFORM_OPTIONS,
  CONTRACT_VALIDATION_OPTIONS,
} from '../../validation/validation-options';
import { CreateContentDto } from '../create-content.dto';
import { QuoteContentDto } from './quote-content.dto';
import { QuoteDataDto } from './quote-data.dto';
import { QuoteFieldDto } from './quote-field.dto';
import { QuoteOptionsDto } from './quote-options.dto';

const FIELDS = [
  { id: 'name', label: 'Name', show: true },
  { id: 'quantity', label: 'Qty', show: true },
  { id: 'price', label: 'Price', show: false },
];

function quote(data: unknown): unknown {
  return { type: 'quote', data };
}

async function errorsOf(data: unknown) {
  return (await validateBody(CreateContentDto, quote(data))).errors;
}

describe('quote data', () => {
  it('accepts a quote with options, fields and items', async () => {
    const data = {
      options: { currency: 'USD' },
      content: {
        fields: FIELDS,
        items: [
          { id: '1', name: 'Design', quantity: 2, price: 500 },
          { id: '2', name: 'Build', quantity: 0, price: 0.5 },
          { id: '3' },
        ],
      },
    };
    const result = await validateBody(CreateContentDto, quote(data));
    expect(result.errors).toEqual([]);
    const value = result.value?.data as QuoteDataDto;
    expect(value).toBeInstanceOf(QuoteDataDto);
    expect(value.options).toBeInstanceOf(QuoteOptionsDto);
    expect(value.content).toBeInstanceOf(QuoteContentDto);
    expect(value.content?.fields?.[0]).toBeInstanceOf(QuoteFieldDto);
    expect(value).toEqual(data);
  });

  it('accepts items with any keys and string, number or boolean values when no fields are given', async () => {
    expect(
      await errorsOf({ content: { items: [{ id: 'a', note: 'x', optional: true, hours: 1.5 }] } }),
    ).toEqual([]);
  });

  it('accepts a field with only an id', async () => {
    expect(await errorsOf({ content: { fields: [{ id: 'name' }] } })).toEqual([]);
  });

  it.each([
    [
      { options: { currency: 'usd' } },
      '/data/options/currency',
      'must be an ISO 4217 currency code in capitals, such as USD',
    ],
    [
      { options: { currency: 'XYZ' } },
      '/data/options/currency',
      'must be an ISO 4217 currency code in capitals, such as USD',
    ],
    [{ options: { locale: 'en' } }, '/data/options/locale', 'is not a known member'],
    [{ options: 'USD' }, '/data/options', 'must be an object'],
    [{ content: [] }, '/data/content', 'must be an object'],
    [{ content: { rows: [] } }, '/data/content/rows', 'is not a known member'],
    [{ total: 5 }, '/data/total', 'is not a known member'],
    [{ content: { fields: [{ label: 'x' }] } }, '/data/content/fields/0/id', 'is required'],
    [
      { content: { fields: [{ id: '' }] } },
      '/data/content/fields/0/id',
      'must be a non-empty string of at most 100 characters',
    ],
    [
      { content: { fields: [{ id: 'a', show: 'yes' }] } },
      '/data/content/fields/0/show',
      'must be true or false',
    ],
    [
      { content: { fields: [{ id: 'a', width: 3 }] } },
      '/data/content/fields/0/width',
      'is not a known member',
    ],
    [
      { content: { fields: [{ id: 'a' }, { id: 'a' }] } },
      '/data/content/fields',
      'must not repeat an id ("a" appears twice)',
    ],
    [
      { content: { fields: [{ id: 'toString' }] } },
      '/data/content/fields/0/id',
      'must not be a name that JavaScript objects reserve, such as __proto__ or constructor',
    ],
    [
      { content: { items: {} } },
      '/data/content/items',
      `must be an array of at most ${QUOTE_ITEMS_MAX} objects`,
    ],
  ])('rejects %j at %s', async (data, pointer, detail) => {
    expect(await errorsOf(data)).toEqual([{ pointer, detail }]);
  });

  it(`rejects more than ${QUOTE_FIELDS_MAX} fields`, async () => {
    const fields = Array.from({ length: QUOTE_FIELDS_MAX + 1 }, (_, index) => ({
      id: `f${index}`,
    }));
    expect(await errorsOf({ content: { fields } })).toEqual([
      {
        pointer: '/data/content/fields',
        detail: `must be an array of at most ${QUOTE_FIELDS_MAX} objects`,
      },
    ]);
  });

  it(`rejects more than ${QUOTE_ITEMS_MAX} items`, async () => {
    const items = Array.from({ length: QUOTE_ITEMS_MAX + 1 }, (_, index) => ({ id: `${index}` }));
    expect(await errorsOf({ content: { items } })).toEqual([
      {
        pointer: '/data/content/items',
        detail: `must be an array of at most ${QUOTE_ITEMS_MAX} objects`,
      },
    ]);
  });

  it('points at each wrong member of each item', async () => {
    const errors = await errorsOf({
      content: {
        fields: FIELDS,
        items: [
          { id: '1', name: 'Design', quantity: 1, price: -1 },
          { id: '2', colour: 'red', quantity: '3' },
          'not an item',
          { name: 'no id', price: 1 },
          { id: 7, name: { nested: true } },
        ],
      },
    });
    expect(errors).toEqual([
      { pointer: '/data/content/items/0/price', detail: 'must be a number of at least 0' },
      { pointer: '/data/content/items/1/colour', detail: 'is not the id of one of the fields' },
      { pointer: '/data/content/items/1/quantity', detail: 'must be a number of at least 0' },
      { pointer: '/data/content/items/2', detail: 'must be an object' },
      { pointer: '/data/content/items/3/id', detail: 'is required' },
      {
        pointer: '/data/content/items/4/id',
        detail: 'must be a non-empty string of at most 100 characters',
      },
      {
        pointer: '/data/content/items/4/name',
        detail: 'must be a string of at most 10000 characters, a number or a boolean',
      },
    ]);
  });

  it('checks quantity and price even without fields', async () => {
    expect(await errorsOf({ content: { items: [{ id: 'a', price: 'free' }] } })).toEqual([
      { pointer: '/data/content/items/0/price', detail: 'must be a number of at least 0' },
    ]);
  });

  it('rejects reserved keys in items and never pollutes prototypes', async () => {
    const body: unknown = JSON.parse(
      '{"type":"quote","data":{"content":{"items":[{"id":"a","__proto__":{"polluted":1},"constructor":2}]}}}',
    );
    const result = await validateBody(CreateContentDto, body);
    expect(result.errors).toEqual([
      { pointer: '/data/content/items/0/__proto__', detail: 'is not a known member' },
      { pointer: '/data/content/items/0/constructor', detail: 'is not a known member' },
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('names the item and key in the message class-validator carries', async () => {
    const content = plainToInstance(
      QuoteContentDto,
      { fields: [{ id: 'price' }], items: [{ id: 'a', price: -2, size: 'L' }] },
      CONTRACT_TRANSFORM_OPTIONS,
    );
    const [error] = await validate(content, CONTRACT_VALIDATION_OPTIONS);
    expect(error?.property).toBe('items');
    expect(error?.constraints).toEqual({
      isQuoteItems:
        'item 0 "price" must be a number of at least 0; item 0 "size" is not the id of one of the fields',
    });
  });
});
