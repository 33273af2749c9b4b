import { DEFAULT_BLOCK_STYLE, DEFAULT_CONTENT_STYLE } from '@layout/contracts';
import { DomainError, LimitExceededError, ResourceNotFoundError } from '../../common/errors';
import { ContentTooLargeError, RefusedMemberError, RowWidthExceededError } from '../errors';
import { A_NEW_ID, OVERSIZED } from '../../../../../test/support/layout-service-fakes';
import { SORT_KEY_GAP, type TreeLevel } from '../repositories/sql/tree-levels';
import { assertWithin, plannedSubtree } from './node-trees';

// What a create makes beneath its node (plannedSubtree): one array per level, in the body's
// order, and every rule of every node checked before anything is sent, the first broken one
// refused with its pointer into the body (RefusedMemberError around the rule's own refusal).

/** The id of the node a create makes, as the caller names it. */
const ROOT = 'root-id';

const key = (n: number) => String(n * SORT_KEY_GAP);
const times = <T>(n: number, element: () => T): T[] => Array.from({ length: n }, element);

/** What plannedSubtree refuses `body` with (it must refuse it). */
function refusalOf(level: TreeLevel, body: object): RefusedMemberError {
  try {
    plannedSubtree(level, body, ROOT);
  } catch (refusal) {
    expect(refusal).toBeInstanceOf(RefusedMemberError);
    return refusal as RefusedMemberError;
  }
  throw new Error('plannedSubtree accepted a body it should refuse');
}

describe('plannedSubtree', () => {
  describe('the nodes beneath the created one', () => {
    /**
     * A project of two blocks: the first with two rows (the first of them with two columns, the
     * first of those with two contents), the second with one row.
     */
    const BODY = {
      title: 'P',
      blocks: [
        {
          description: 'A',
          rows: [
            {
              description: 'A0',
              columns: [
                {
                  size: 6,
                  contents: [
                    { type: 'empty' },
                    { type: 'text', data: { html: '<p>x<script>y</script></p>' } },
                  ],
                },
                { size: 4 },
              ],
            },
            {},
          ],
        },
        { description: 'B', style: { opacity: 0.5 }, rows: [{ description: 'B0' }] },
      ],
    };

    it('are one array per level and member, in the order of the body, each parent named by its new id', () => {
      const subtree = plannedSubtree('project', BODY, ROOT);
      expect(subtree.nodes).toBe(1 + 2 + 3 + 2 + 2);
      const { block, row, column, content } = subtree.levels;
      expect(block).toEqual({
        ids: [A_NEW_ID, A_NEW_ID],
        parents: [ROOT, ROOT],
        keys: [key(1), key(2)],
        values: [
          { description: 'A', style: DEFAULT_BLOCK_STYLE },
          { description: 'B', style: { ...DEFAULT_BLOCK_STYLE, opacity: 0.5 } },
        ],
      });
      const [a, b] = block!.ids;
      expect(row).toEqual({
        ids: [A_NEW_ID, A_NEW_ID, A_NEW_ID],
        parents: [a, a, b],
        // Each list is numbered from its own start.
        keys: [key(1), key(2), key(1)],
        values: [{ description: 'A0' }, { description: '' }, { description: 'B0' }],
      });
      const a0 = row!.ids[0];
      expect(column).toEqual({
        ids: [A_NEW_ID, A_NEW_ID],
        parents: [a0, a0],
        keys: [key(1), key(2)],
        values: [{ size: 6 }, { size: 4 }],
      });
      const a00 = column!.ids[0];
      expect(content).toEqual({
        ids: [A_NEW_ID, A_NEW_ID],
        parents: [a00, a00],
        keys: [key(1), key(2)],
        // What the composer makes: defaults filled in, HTML sanitised.
        values: [
          { type: 'empty', style: DEFAULT_CONTENT_STYLE, data: {} },
          { type: 'text', style: DEFAULT_CONTENT_STYLE, data: { html: '<p>x</p>' } },
        ],
      });
    });

    it('each have an id of their own, other than the created node’s', () => {
      const { levels } = plannedSubtree('project', BODY, ROOT);
      const ids = Object.values(levels).flatMap((nodes) => nodes.ids);
      expect(ids).toHaveLength(9);
      expect(new Set([ROOT, ...ids]).size).toBe(10);
    });

    it.each([
      ['block', { description: 'x', rows: [{}, {}] }, 'row', 2],
      ['row', { columns: [{ size: 12 }] }, 'column', 1],
      ['column', { size: 4, contents: [{ type: 'empty' }] }, 'content', 1],
    ] as const)('beneath a %s start with its children', (level, body, child, count) => {
      const subtree = plannedSubtree(level, body, ROOT);
      expect(subtree.nodes).toBe(1 + count);
      expect(Object.keys(subtree.levels)).toEqual([child]);
      expect(subtree.levels[child]?.parents).toEqual(times(count, () => ROOT));
    });

    it.each([
      ['project', { title: 'P' }],
      ['project', { title: 'P', blocks: [] }],
      ['block', { description: 'x', rows: undefined }],
      ['row', { columns: [] }],
      ['column', { size: 4 }],
      ['content', { type: 'empty' }],
    ] as const)('are none for a %s whose body lists none: %j', (level, body) => {
      expect(plannedSubtree(level, body, ROOT)).toEqual({ nodes: 1, levels: {} });
    });
  });

  describe('refuses the first node that breaks a rule, with its pointer', () => {
    it('a row wider than 12, at the size of the column that overflows, with availableSize', () => {
      const body = {
        title: 'P',
        blocks: [
          { description: 'A', rows: [{ columns: [{ size: 12 }] }, { columns: [] }] },
          {
            description: 'B',
            rows: [{}, { columns: [{ size: 6 }, { size: 4 }, { size: 3 }] }],
          },
        ],
      };
      const refused = refusalOf('project', body);
      expect(refused.pointer).toBe('/blocks/1/rows/1/columns/2/size');
      expect(refused.refusal).toMatchObject({
        constructor: RowWidthExceededError,
        availableSize: 2,
        requestedSize: 3,
        rowWidth: 12,
      });
    });

    it('counts the width of each row apart: 12 in each row of a block is no excess', () => {
      const rows = times(3, () => ({ columns: [{ size: 6 }, { size: 6 }] }));
      expect(plannedSubtree('block', { description: 'x', rows }, ROOT).nodes).toBe(1 + 3 + 6);
    });

    it.each([
      ['project', 'blocks', 500, { description: 'x' }, '/blocks/500'],
      ['block', 'rows', 500, {}, '/rows/500'],
      ['column', 'contents', 1000, { type: 'empty' }, '/contents/1000'],
    ] as const)(
      'a %s holds %s up to its limit: one more is LimitExceededError at its pointer',
      (level, member, max, child, pointer) => {
        const base = level === 'project' ? { title: 'P' } : level === 'block' ? {} : { size: 6 };
        const full = { ...base, [member]: times(max, () => child) };
        expect(plannedSubtree(level, full, ROOT).nodes).toBe(1 + max);
        const over = { ...base, [member]: times(max + 1, () => child) };
        const refused = refusalOf(level, over);
        expect(refused.pointer).toBe(pointer);
        expect(refused.refusal).toMatchObject({ constructor: LimitExceededError, limit: max });
      },
    );

    it('the same limits deep in a tree, at the pointer of the child past it', () => {
      const contents = times(1001, () => ({ type: 'empty' }));
      const body = {
        title: 'P',
        blocks: [{ description: 'A', rows: [{}, { columns: [{ size: 1, contents }] }] }],
      };
      const refused = refusalOf('project', body);
      expect(refused.pointer).toBe('/blocks/0/rows/1/columns/0/contents/1000');
      expect(refused.refusal).toMatchObject({ limit: 1000 });
    });

    it('the 20 001st node a create makes (its own node counted), at the pointer of that node', () => {
      // 40 blocks of 499 rows: 40 × 500 nodes, and the project.
      const blocks = times(40, () => ({ description: 'x', rows: times(499, () => ({})) }));
      const refused = refusalOf('project', { title: 'P', blocks });
      expect(refused.pointer).toBe('/blocks/39/rows/498');
      expect(refused.refusal).toMatchObject({ constructor: LimitExceededError, limit: 20_000 });
      // One node fewer: 20 000 exactly.
      blocks[39].rows.pop();
      expect(plannedSubtree('project', { title: 'P', blocks }, ROOT).nodes).toBe(20_000);
    });

    it('a content’s data over 256 KiB, at that content’s data', () => {
      const body = {
        description: 'x',
        rows: [
          {
            columns: [
              { size: 6 },
              { size: 6, contents: [{ type: 'empty' }, { type: 'image', data: OVERSIZED }] },
            ],
          },
        ],
      };
      const refused = refusalOf('block', body);
      expect(refused.pointer).toBe('/rows/0/columns/1/contents/1/data');
      expect(refused.refusal).toMatchObject({
        constructor: ContentTooLargeError,
        pointer: '/rows/0/columns/1/contents/1/data',
      });
    });

    it.each([
      [
        'data over 256 KiB before a row past 12 after it',
        {
          columns: [{ size: 6, contents: [{ type: 'image', data: OVERSIZED }] }, { size: 7 }],
        },
        '/blocks/0/rows/0/columns/0/contents/0/data',
      ],
      [
        'a row past 12 before data over 256 KiB after it',
        {
          columns: [{ size: 6 }, { size: 7, contents: [{ type: 'image', data: OVERSIZED }] }],
        },
        '/blocks/0/rows/0/columns/1/size',
      ],
    ])('in the order of the body: %s', (_name, row, pointer) => {
      const body = { title: 'P', blocks: [{ description: 'A', rows: [row] }] };
      expect(refusalOf('project', body).pointer).toBe(pointer);
    });

    it('in the order of the body: a deep refusal in an early block before the 501st block', () => {
      const blocks: object[] = times(501, () => ({ description: 'x' }));
      blocks[3] = { description: 'x', rows: [{ columns: [{ size: 8 }, { size: 8 }] }] };
      expect(refusalOf('project', { title: 'P', blocks }).pointer).toBe(
        '/blocks/3/rows/0/columns/1/size',
      );
    });

    it('in the order of the body: the 501st row of an early block before a later block’s data', () => {
      const blocks = [
        { description: 'A', rows: times(501, () => ({})) },
        {
          description: 'B',
          rows: [{ columns: [{ size: 1, contents: [{ type: 'image', data: OVERSIZED }] }] }],
        },
      ];
      expect(refusalOf('project', { title: 'P', blocks }).pointer).toBe('/blocks/0/rows/500');
    });
  });
});

describe('assertWithin', () => {
  it('lets a rule that holds pass', () => {
    expect(() => assertWithin('/blocks/0', () => undefined)).not.toThrow();
  });

  it('tells a rule’s refusal as one of the member at the pointer, the refusal kept whole', () => {
    const limit = new LimitExceededError(8, 'too big');
    const refused = (() => {
      try {
        assertWithin('/blocks/2/rows/0', () => {
          throw limit;
        });
      } catch (error) {
        return error as RefusedMemberError;
      }
      return undefined;
    })();
    expect(refused).toBeInstanceOf(RefusedMemberError);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused?.pointer).toBe('/blocks/2/rows/0');
    expect(refused?.refusal).toBe(limit);
    expect(refused?.message).toBe('/blocks/2/rows/0: too big');
  });

  it('names the whole body when the pointer is ""', () => {
    const refusal = new ResourceNotFoundError('Row');
    expect(() =>
      assertWithin('', () => {
        throw refusal;
      }),
    ).toThrow(
      expect.objectContaining({
        constructor: RefusedMemberError,
        pointer: '',
        refusal,
        message: 'The body: Row not found',
      }),
    );
  });

  it('lets anything but a rule’s refusal (a defect) through as it is', () => {
    const defect = new TypeError('not a rule');
    expect(() =>
      assertWithin('/x', () => {
        throw defect;
      }),
    ).toThrow(defect);
  });
});
