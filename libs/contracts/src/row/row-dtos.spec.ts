import { ColumnTreeDto } from '../tree/column-tree.dto';
import { ContentTreeDto } from '../tree/content-tree.dto';
import { validateBody } from '../validation/validate-body';
import { CreateRowDto } from './create-row.dto';
import { UpdateRowDto } from './update-row.dto';

describe.each([
  ['CreateRowDto', CreateRowDto],
  ['UpdateRowDto', UpdateRowDto],
])('%s', (_name, cls) => {
  it('accepts an empty body, a description and a position', async () => {
    expect((await validateBody(cls, {})).ok).toBe(true);
    expect((await validateBody(cls, { description: 'Row', position: 2 })).value).toEqual({
      description: 'Row',
      position: 2,
    });
  });

  it.each([
    [
      { description: 'x'.repeat(501) },
      '/description',
      'must be a string of at most 500 characters',
    ],
    [{ description: false }, '/description', 'must be a string of at most 500 characters'],
    [{ position: -3 }, '/position', 'must be an integer of at least 0'],
    [{ position: null }, '/position', 'must be an integer of at least 0'],
  ])('rejects %j at %s', async (body, pointer, detail) => {
    expect((await validateBody(cls, body)).errors).toEqual([{ pointer, detail }]);
  });
});

describe('UpdateRowDto', () => {
  it('takes no columns: an update sets the row’s own members', async () => {
    expect((await validateBody(UpdateRowDto, { columns: [] })).errors).toEqual([
      { pointer: '/columns', detail: 'is not a known member' },
    ]);
  });
});

// Part three of the contract ("Whole trees in one request"): a row's create may carry its
// columns, each with its contents, in the shape a read answers. It was "not a known member".
describe('CreateRowDto, with the columns a read shows', () => {
  it('accepts columns, each with its contents, as columns and contents of a tree', async () => {
    const result = await validateBody(CreateRowDto, {
      description: 'Two columns',
      columns: [{ size: '6', contents: [{ type: 'empty' }] }, { size: 6 }],
    });
    expect(result.errors).toEqual([]);
    expect(result.value).toEqual({
      description: 'Two columns',
      columns: [{ size: 6, contents: [{ type: 'empty' }] }, { size: 6 }],
    });
    expect(result.value?.columns?.[0]).toBeInstanceOf(ColumnTreeDto);
    expect(result.value?.columns?.[0].contents?.[0]).toBeInstanceOf(ContentTreeDto);
  });

  it('accepts an empty list of columns', async () => {
    expect((await validateBody(CreateRowDto, { columns: [] })).value).toEqual({ columns: [] });
  });

  it('drops the _id a read gives, at every depth', async () => {
    const result = await validateBody(CreateRowDto, {
      _id: 'r1',
      columns: [{ _id: 'c1', size: 12, contents: [{ _id: 'ct1', type: 'empty' }] }],
    });
    expect(result.errors).toEqual([]);
    expect(result.value).toEqual({ columns: [{ size: 12, contents: [{ type: 'empty' }] }] });
  });

  it.each([
    [{ columns: {} }, '/columns', 'must be an array of objects'],
    [{ columns: [{}] }, '/columns/0/size', 'is required'],
    [
      { columns: [{ size: 6 }, { size: 13 }] },
      '/columns/1/size',
      'must be an integer from 1 to 12',
    ],
    [{ columns: [{ size: 6, width: 6 }] }, '/columns/0/width', 'is not a known member'],
    [
      { columns: [{ size: 6, contents: [{ type: 'chart' }] }] },
      '/columns/0/contents/0/type',
      'must be one of: empty, text, image, video, quote',
    ],
  ])('rejects %j at %s', async (body, pointer, detail) => {
    expect((await validateBody(CreateRowDto, body)).errors).toEqual([{ pointer, detail }]);
  });

  it('leaves the row’s width to the server, which answers 409 past it', async () => {
    const columns = [{ size: 12 }, { size: 12 }];
    expect((await validateBody(CreateRowDto, { columns })).ok).toBe(true);
  });
});
