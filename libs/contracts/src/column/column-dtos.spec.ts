import { ColumnContentDto } from '../content/column-content.dto';
import { TextDataDto } from '../content/data/text-data.dto';
import { ContentTreeDto } from '../tree/content-tree.dto';
import { CONTENTS_PER_COLUMN_MAX } from '../limits';
import { validateBody } from '../validation/validate-body';
import { CreateColumnDto } from './create-column.dto';
import { UpdateColumnDto } from './update-column.dto';

const SIZE_DETAIL = 'must be an integer from 1 to 12';

describe('CreateColumnDto', () => {
  it.each([
    [6, 6],
    ['6', 6],
    [1, 1],
    ['1', 1],
    [12, 12],
    ['12', 12],
  ])('accepts the size %j as %j', async (size, expected) => {
    const result = await validateBody(CreateColumnDto, { size });
    expect(result.errors).toEqual([]);
    expect(result.value?.size).toBe(expected);
  });

  it.each([6.5, '6.5', 'six', 0, 13, '0', '13', '06', ' 6', '', -1, true, null, [6], { size: 6 }])(
    'rejects the size %j',
    async (size) => {
      expect((await validateBody(CreateColumnDto, { size })).errors).toEqual([
        { pointer: '/size', detail: SIZE_DETAIL },
      ]);
    },
  );

  it('requires the size', async () => {
    expect((await validateBody(CreateColumnDto, { contents: [] })).errors).toEqual([
      { pointer: '/size', detail: 'is required' },
    ]);
  });

  it('builds each element of contents as a content of its type', async () => {
    const result = await validateBody(CreateColumnDto, {
      size: '4',
      contents: [{ type: 'empty' }, { type: 'text', data: { html: '<p>Hi</p>' } }],
      position: 1,
    });
    expect(result.errors).toEqual([]);
    const contents = result.value?.contents ?? [];
    // Part three: a create's contents are the contents of a tree (ContentTreeDto), no longer
    // the elements of a column's list (ColumnContentDto, which an update still takes).
    expect(contents[0]).toBeInstanceOf(ContentTreeDto);
    expect(contents[0]).not.toBeInstanceOf(ColumnContentDto);
    expect(contents[1]?.data).toBeInstanceOf(TextDataDto);
    expect(result.value).toEqual({
      size: 4,
      contents: [{ type: 'empty' }, { type: 'text', data: { html: '<p>Hi</p>' } }],
      position: 1,
    });
  });

  it('drops the _id a read gives to the column and to each of its contents: every one is new', async () => {
    const result = await validateBody(CreateColumnDto, {
      _id: '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a87',
      size: '6',
      contents: [
        { _id: '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a88', type: 'empty', data: {} },
        { _id: 'not even an id', type: 'empty' },
      ],
    });
    expect(result.errors).toEqual([]);
    expect(result.value).toEqual({
      size: 6,
      contents: [{ type: 'empty', data: {} }, { type: 'empty' }],
    });
    for (const content of result.value?.contents ?? []) expect('_id' in content).toBe(false);
  });

  it('points into the element of contents that is wrong', async () => {
    const result = await validateBody(CreateColumnDto, {
      size: 6,
      contents: [
        { type: 'empty' },
        { type: 'text' },
        { type: 'image', style: { opacity: 1.5 }, data: { html: 'x' } },
        { data: {} },
      ],
    });
    expect(result.errors).toEqual([
      { pointer: '/contents/2/style/opacity', detail: 'must be a number from 0 to 1' },
      { pointer: '/contents/2/data/html', detail: 'is not a known member' },
      { pointer: '/contents/3/type', detail: 'is required' },
    ]);
  });

  it.each([
    ['not an array', { type: 'empty' }],
    ['an element that is not an object', [{ type: 'empty' }, 'text']],
    ['a nested array', [[{ type: 'empty' }]]],
  ])('rejects contents with %s', async (_case, contents) => {
    expect((await validateBody(CreateColumnDto, { size: 6, contents })).errors).toEqual([
      { pointer: '/contents', detail: 'must be an array of objects' },
    ]);
  });

  it('leaves the number of contents to the server, which answers limit-exceeded past it', async () => {
    const contents = Array.from({ length: CONTENTS_PER_COLUMN_MAX + 1 }, () => ({ type: 'empty' }));
    expect((await validateBody(CreateColumnDto, { size: 6, contents })).ok).toBe(true);
  });

  it('rejects unknown members', async () => {
    expect((await validateBody(CreateColumnDto, { size: 6, width: 6 })).errors).toEqual([
      { pointer: '/width', detail: 'is not a known member' },
    ]);
  });
});

describe('UpdateColumnDto', () => {
  it('accepts only a size (seed rule 3), as a number or as read back', async () => {
    expect((await validateBody(UpdateColumnDto, { size: 4 })).value).toEqual({ size: 4 });
    expect((await validateBody(UpdateColumnDto, { size: '4' })).value).toEqual({ size: 4 });
  });

  it('accepts back exactly what a response carried', async () => {
    const read = {
      _id: '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a87',
      size: '6',
      contents: [
        {
          _id: '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a88',
          type: 'empty',
          style: {
            backgroundImage: '',
            backgroundRepeat: 'no-repeat',
            backgroundSize: 'cover',
            backgroundPosition: 'center center',
            opacity: 1,
          },
          data: {},
        },
      ],
    };
    const result = await validateBody(UpdateColumnDto, read);
    expect(result.errors).toEqual([]);
    expect(result.value).toEqual({ ...read, size: 6 });
    // An update's contents keep their _id: it names the content updated in place.
    expect(result.value?.contents?.[0]).toBeInstanceOf(ColumnContentDto);
  });

  it('accepts an empty body and rejects a null size', async () => {
    expect((await validateBody(UpdateColumnDto, {})).ok).toBe(true);
    expect((await validateBody(UpdateColumnDto, { size: null })).errors).toEqual([
      { pointer: '/size', detail: SIZE_DETAIL },
    ]);
  });

  it('rejects an _id that is not a non-empty string', async () => {
    const detail = 'must be a non-empty string of at most 100 characters';
    expect((await validateBody(UpdateColumnDto, { _id: 7 })).errors).toEqual([
      { pointer: '/_id', detail },
    ]);
    expect(
      (await validateBody(UpdateColumnDto, { contents: [{ _id: '', type: 'empty' }] })).errors,
    ).toEqual([{ pointer: '/contents/0/_id', detail }]);
  });
});
