import { jest } from '@jest/globals';
import { type ColumnContentDto, DEFAULT_CONTENT_STYLE } from '@layout/contracts';
import { LimitExceededError, RequestValidationError } from '../../common/errors';
import { ContentTooLargeError } from '../errors';
import { ContentComposer } from '../content/content-composer';
import { type ContentRecord } from '../layout.records';
import { OVERSIZED } from '../../../../../test/support/layout-service-fakes';
import { ColumnContents } from './column-contents';

const TEXT: ContentRecord = {
  id: 'ct1',
  type: 'text',
  style: { ...DEFAULT_CONTENT_STYLE },
  data: { html: '<p>A</p>' },
};
const EMPTY: ContentRecord = {
  id: 'ct2',
  type: 'empty',
  style: { ...DEFAULT_CONTENT_STYLE, opacity: 0.5 },
  data: {},
};
/**
 * A column's contents as the statement reads them under the lock: fresh objects, as pg parses
 * them (JSON, not structuredClone, whose objects Jest gives another realm's prototype, which
 * isDeepStrictEqual would tell apart).
 */
const stored = (): ContentRecord[] => JSON.parse(JSON.stringify([TEXT, EMPTY])) as ContentRecord[];

/** A `contents` element that sends back a stored content as it was read. */
const echo = (content: ContentRecord): ColumnContentDto => ({
  _id: content.id,
  type: content.type,
  style: { ...content.style },
  data: { ...content.data },
});

const many = (n: number) => Array.from({ length: n }, () => ({ type: 'empty' as const }));

describe('ColumnContents, a column’s complete new list of contents', () => {
  let composer: ContentComposer;
  let columns: ColumnContents;

  beforeEach(() => {
    composer = new ContentComposer();
    columns = new ColumnContents(composer);
  });

  describe('prepare (before the lock)', () => {
    it('does each element’s own work with the composer (sanitising), keeping its _id', () => {
      const prepare = jest.spyOn(composer, 'prepare');
      const prepared = columns.prepare([
        { type: 'empty' },
        { _id: 'ct1', type: 'text', data: { html: '<p>a<script>x</script></p>' } },
      ]);
      expect(prepare).toHaveBeenCalledTimes(2);
      expect(prepared).toEqual([
        { id: undefined, prepared: { type: 'empty', style: undefined, data: undefined } },
        { id: 'ct1', prepared: { type: 'text', style: undefined, data: { html: '<p>a</p>' } } },
      ]);
    });

    it('accepts 1000 contents and refuses 1001 with LimitExceededError(1000), preparing none', () => {
      expect(columns.prepare(many(1000))).toHaveLength(1000);
      const prepare = jest.spyOn(composer, 'prepare');
      expect(() => columns.prepare(many(1001))).toThrow(
        expect.objectContaining({ constructor: LimitExceededError, limit: 1000 }),
      );
      expect(prepare).not.toHaveBeenCalled();
    });

    it('refuses a content’s data over 256 KiB with ContentTooLargeError at /contents/<i>/data', () => {
      expect(() =>
        columns.prepare([{ type: 'empty' }, { _id: 'ct2', type: 'image', data: OVERSIZED }]),
      ).toThrow(
        expect.objectContaining({ constructor: ContentTooLargeError, pointer: '/contents/1/data' }),
      );
    });
  });

  describe('plan (under the lock, given the contents as stored)', () => {
    it('updates listed contents in place (with their current state), creates the others, in order', () => {
      const merge = jest.spyOn(composer, 'merge');
      const plan = columns.plan(
        columns.prepare([
          { type: 'quote' },
          { _id: 'ct2', type: 'empty' },
          { _id: 'ct1', type: 'text', style: { opacity: 0.2 } },
        ]),
        stored(),
      );
      expect(merge.mock.calls.map(([, current]) => current?.id)).toEqual([undefined, 'ct2', 'ct1']);
      expect(merge.mock.calls[2][1]).toEqual(TEXT);
      expect(plan).toEqual([
        { type: 'quote', style: { ...DEFAULT_CONTENT_STYLE }, data: {} },
        { id: 'ct2', type: 'empty', style: EMPTY.style, data: {} },
        {
          id: 'ct1',
          type: 'text',
          style: { ...DEFAULT_CONTENT_STYLE, opacity: 0.2 },
          data: TEXT.data,
        },
      ]);
    });

    it('makes an empty list of an empty list: every content goes', () => {
      expect(columns.plan([], stored())).toEqual([]);
    });

    it('refuses an _id that is not one of the column’s contents (pointer /contents/<i>/_id)', () => {
      const elements = columns.prepare([
        echo(TEXT),
        { _id: 'ct-of-another-column', type: 'empty' },
      ]);
      expect(() => columns.plan(elements, stored())).toThrow(
        expect.objectContaining({
          constructor: RequestValidationError,
          errors: [{ pointer: '/contents/1/_id', detail: expect.stringContaining('not the id') }],
        }),
      );
    });

    it('refuses any _id in a new column’s contents (it has none yet)', () => {
      const elements = columns.prepare([{ type: 'empty' }, { _id: 'ct1', type: 'empty' }]);
      expect(() => columns.plan(elements, [])).toThrow(
        expect.objectContaining({
          constructor: RequestValidationError,
          errors: [{ pointer: '/contents/1/_id', detail: expect.stringContaining('not the id') }],
        }),
      );
    });

    it('refuses an _id listed twice (pointer of the second one)', () => {
      const elements = columns.prepare([echo(TEXT), echo(EMPTY), echo(TEXT)]);
      expect(() => columns.plan(elements, stored())).toThrow(
        expect.objectContaining({
          constructor: RequestValidationError,
          errors: [{ pointer: '/contents/2/_id', detail: 'is listed twice' }],
        }),
      );
    });
  });

  describe('same (whether a plan leaves the contents exactly as they are)', () => {
    const same = (elements: ColumnContentDto[]) => {
      const current = stored();
      return columns.same(columns.plan(columns.prepare(elements), current), current);
    };

    it.each([
      ['the contents sent back as read', [echo(TEXT), echo(EMPTY)]],
      [
        'elements that leave out what they keep',
        [
          { _id: 'ct1', type: 'text' as const },
          { _id: 'ct2', type: 'empty' as const },
        ],
      ],
    ])('holds with %s', (_name, elements) => {
      expect(same(elements)).toBe(true);
    });

    it.each([
      ['another order', [echo(EMPTY), echo(TEXT)]],
      ['one content fewer', [echo(TEXT)]],
      ['one content more', [echo(TEXT), echo(EMPTY), { type: 'empty' as const }]],
      ['a changed content', [echo(TEXT), { ...echo(EMPTY), type: 'quote' as const }]],
      ['a new content in place of one', [echo(TEXT), { type: 'empty' as const }]],
      ['no contents', []],
    ])('fails with %s', (_name, elements) => {
      expect(same(elements)).toBe(false);
    });
  });
});
