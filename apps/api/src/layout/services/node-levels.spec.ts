import { jest } from '@jest/globals';
import { BlockStyleDto, DEFAULT_BLOCK_STYLE, DEFAULT_CONTENT_STYLE } from '@layout/contracts';
import { LimitExceededError } from '../../common/errors';
import { ContentTooLargeError, RowWidthExceededError } from '../errors';
import { ContentComposer } from '../content/content-composer';
import { OVERSIZED } from '../../../../../test/support/layout-service-fakes';
import { LEVELS } from './node-levels';

// The table of what differs from one level of the tree to another. The node service's specs
// (node-writes.spec.ts) show each rule at work in a write; here, the rules themselves.

describe('LEVELS, the rules of each level of the tree', () => {
  afterEach(() => jest.restoreAllMocks());

  it.each([
    ['block', { member: 'rows', level: 'row' }],
    ['row', { member: 'columns', level: 'column' }],
    ['column', { member: 'contents', level: 'content' }],
    ['content', undefined],
  ] as const)('a %s’s create lists its children in %j', (level, children) => {
    expect(LEVELS[level].children).toEqual(children);
  });

  it.each([
    ['block', 'Block', 'Project', undefined],
    ['row', 'Row', 'Block', 'blockId'],
    ['column', 'Column', 'Row', 'rowId'],
    ['content', 'Content', 'Column', 'columnId'],
  ] as const)(
    'a %s is named %s in a 404, its parent %s, and a move or a copy names another parent with %s',
    (level, name, parentName, parentMember) => {
      expect(LEVELS[level]).toMatchObject({ name, parentName, parentMember });
    },
  );

  describe.each([
    ['block', 500, 'A project holds at most 500'],
    ['row', 500, 'A block holds at most 500'],
    ['content', 1000, 'A column holds at most 1000'],
  ] as const)('a %s’s parent', (level, max, message) => {
    it(`holds ${max} of them, and refuses one more with LimitExceededError(${max})`, () => {
      expect(() => LEVELS[level].fits({ siblings: max })).not.toThrow();
      expect(() => LEVELS[level].fits({ siblings: max + 1 })).toThrow(
        expect.objectContaining({ constructor: LimitExceededError, limit: max, message }),
      );
    });

    it('takes a report without a count as nothing counted', () => {
      expect(() => LEVELS[level].fits({})).not.toThrow();
    });
  });

  describe('a column’s row', () => {
    it('holds columns whose sizes add up to 12, and refuses more with RowWidthExceededError(availableSize)', () => {
      expect(() => LEVELS.column.fits({ others: 8, size: 4 })).not.toThrow();
      expect(() => LEVELS.column.fits({ others: 9, size: 4 })).toThrow(
        expect.objectContaining({
          constructor: RowWidthExceededError,
          availableSize: 3,
          requestedSize: 4,
        }),
      );
      expect(() => LEVELS.column.fits({ others: 13, size: 1 })).toThrow(
        expect.objectContaining({ availableSize: 0 }),
      );
    });

    it('keeps no count: a row of 12 one-wide columns is full, whatever its children', () => {
      expect(() => LEVELS.column.fits({ others: 0, size: 12, siblings: 10_000 })).not.toThrow();
    });
  });

  describe('a block', () => {
    it('stores its description and a style with the defaults filled in, members left undefined ignored', () => {
      const style = Object.assign(new BlockStyleDto(), {
        backgroundColor: '#000',
        opacity: undefined,
      });
      expect(LEVELS.block.values({ description: 'x', style }, '')).toEqual({
        description: 'x',
        style: { ...DEFAULT_BLOCK_STYLE, backgroundColor: '#000' },
      });
      expect(LEVELS.block.values({ description: '' }, '')).toEqual({
        description: '',
        style: DEFAULT_BLOCK_STYLE,
      });
    });

    it('updates the members given: a style replaces the stored one whole, with its defaults; left out, null (kept)', () => {
      expect(LEVELS.block.changes({})).toEqual({ description: null, style: null });
      expect(LEVELS.block.changes({ description: '' })).toEqual({ description: '', style: null });
      expect(LEVELS.block.changes({ style: { opacity: 0.3 } })).toEqual({
        description: null,
        style: { ...DEFAULT_BLOCK_STYLE, opacity: 0.3 },
      });
      // An empty style resets the stored one to the defaults.
      expect(LEVELS.block.changes({ style: {} })).toEqual({
        description: null,
        style: DEFAULT_BLOCK_STYLE,
      });
    });
  });

  describe('a row', () => {
    it('stores an empty description when the body has none', () => {
      expect(LEVELS.row.values({}, '')).toEqual({ description: '' });
      expect(LEVELS.row.values({ description: 'Top' }, '')).toEqual({ description: 'Top' });
    });

    it('updates an empty description, which is a change, not "left out"', () => {
      expect(LEVELS.row.changes({ description: '' })).toEqual({ description: '' });
      expect(LEVELS.row.changes({})).toEqual({ description: null });
    });
  });

  describe('a column', () => {
    it('stores its size, and updates it only when given', () => {
      expect(LEVELS.column.values({ size: 6 }, '')).toEqual({ size: 6 });
      expect(LEVELS.column.changes({ size: 5 })).toEqual({ size: 5 });
      expect(LEVELS.column.changes({ position: 0 })).toEqual({ size: null });
    });
  });

  describe('a content', () => {
    it('stores what the composer makes of the body', () => {
      const compose = jest.spyOn(ContentComposer.prototype, 'compose');
      expect(LEVELS.content.values({ type: 'empty' }, '')).toEqual({
        type: 'empty',
        style: { ...DEFAULT_CONTENT_STYLE },
        data: {},
      });
      expect(compose).toHaveBeenCalledWith({ type: 'empty' });
      expect(
        LEVELS.content.values(
          { type: 'text', data: { html: '<p>a<script>x</script></p>' } },
          '/contents/0',
        ),
      ).toMatchObject({ data: { html: '<p>a</p>' } });
    });

    it('refuses data over 256 KiB with ContentTooLargeError at /data, on a create and on an update', () => {
      const failure = expect.objectContaining({
        constructor: ContentTooLargeError,
        pointer: '/data',
      });
      expect(() => LEVELS.content.values({ type: 'image', data: OVERSIZED }, '')).toThrow(failure);
      expect(() => LEVELS.content.changes({ type: 'image', data: OVERSIZED })).toThrow(failure);
    });

    it('refuses data over 256 KiB of a content inside a tree at the data of that content', () => {
      const at = '/blocks/1/rows/0/columns/2/contents/3';
      expect(() => LEVELS.content.values({ type: 'image', data: OVERSIZED }, at)).toThrow(
        expect.objectContaining({ constructor: ContentTooLargeError, pointer: `${at}/data` }),
      );
      // Data of 256 KiB exactly, as stored JSON, is accepted.
      const exact = { alt: 'x'.repeat(256 * 1024 - '{"alt":""}'.length) };
      expect(() => LEVELS.content.values({ type: 'image', data: exact }, at)).not.toThrow();
    });

    it('updates what the body prepares (sanitised, defaults filled into a style): its type, and null for what it leaves out', () => {
      const prepare = jest.spyOn(ContentComposer.prototype, 'prepare');
      expect(LEVELS.content.changes({ type: 'text' })).toEqual({
        type: 'text',
        style: null,
        data: null,
      });
      const body = { type: 'text' as const, style: { opacity: 0.2 }, data: { html: '<b>x</b>' } };
      expect(LEVELS.content.changes(body)).toEqual({
        type: 'text',
        style: { ...DEFAULT_CONTENT_STYLE, opacity: 0.2 },
        data: { html: '<b>x</b>' },
      });
      expect(prepare).toHaveBeenLastCalledWith(body);
    });
  });
});
