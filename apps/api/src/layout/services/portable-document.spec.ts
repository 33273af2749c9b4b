import { DEFAULT_BLOCK_STYLE, DEFAULT_CONTENT_STYLE } from '@layout/contracts';
import { portableDocument } from './portable-document';

// The export of a project (`?format=portable`): its document without the members a read adds to
// each node, and nothing else taken away.

const TIMES = { createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-02T00:00:00.000Z' };

/** A quote whose fields and items use the names a read adds to a node, as its own keys. */
const QUOTE_DATA = {
  options: { currency: 'EUR' },
  content: {
    fields: [
      { id: '_id', label: 'Id', show: true },
      { id: 'revision', label: 'Revision', show: true },
      { id: 'createdAt', label: 'Created', show: false },
    ],
    items: [{ id: 'i1', _id: 'sku-1', revision: 3, createdAt: 'yesterday', updatedAt: 'today' }],
  },
  _id: 'a key of the data',
  revision: 2,
};

/** A project's document as a read answers it. */
const READ = {
  _id: 'p1',
  title: 'Proposal',
  revision: 7,
  ...TIMES,
  blocks: [
    {
      _id: 'b1',
      description: 'Intro',
      style: DEFAULT_BLOCK_STYLE,
      rows: [
        {
          _id: 'r1',
          description: '',
          columns: [
            {
              _id: 'c1',
              size: '6',
              contents: [
                { _id: 'ct1', type: 'quote', style: DEFAULT_CONTENT_STYLE, data: QUOTE_DATA },
                { _id: 'ct2', type: 'empty', style: DEFAULT_CONTENT_STYLE, data: {} },
              ],
            },
            { _id: 'c2', size: '6', contents: [] },
          ],
        },
      ],
      ...TIMES,
    },
    { _id: 'b2', description: 'Empty', style: DEFAULT_BLOCK_STYLE, rows: [], ...TIMES },
  ],
};

/** The same project as an export. */
const EXPORTED = {
  title: 'Proposal',
  blocks: [
    {
      description: 'Intro',
      style: DEFAULT_BLOCK_STYLE,
      rows: [
        {
          description: '',
          columns: [
            {
              size: '6',
              contents: [
                { type: 'quote', style: DEFAULT_CONTENT_STYLE, data: QUOTE_DATA },
                { type: 'empty', style: DEFAULT_CONTENT_STYLE, data: {} },
              ],
            },
            { size: '6', contents: [] },
          ],
        },
      ],
    },
    { description: 'Empty', style: DEFAULT_BLOCK_STYLE, rows: [] },
  ],
};

describe('portableDocument', () => {
  it('leaves out _id, revision and the times of every node, and keeps every other member', () => {
    expect(JSON.parse(portableDocument(JSON.stringify(READ)))).toEqual(EXPORTED);
  });

  it('keeps every key of a content’s data, those named like the members a read adds included', () => {
    const exported = JSON.parse(portableDocument(JSON.stringify(READ))) as typeof EXPORTED;
    const data = exported.blocks[0].rows[0].columns[0].contents[0].data as typeof QUOTE_DATA;
    expect(data).toEqual(QUOTE_DATA);
    expect(data).toHaveProperty('_id', 'a key of the data');
    expect(data).toHaveProperty('revision', 2);
    expect(data.content.items[0]).toEqual({
      id: 'i1',
      _id: 'sku-1',
      revision: 3,
      createdAt: 'yesterday',
      updatedAt: 'today',
    });
  });

  it('keeps the order of every list and of each node’s members', () => {
    expect(portableDocument(JSON.stringify(READ))).toBe(JSON.stringify(EXPORTED));
  });

  it('exports a project without blocks as its title and an empty list', () => {
    const read = { _id: 'p1', title: 'P', revision: 1, ...TIMES, blocks: [] };
    expect(portableDocument(JSON.stringify(read))).toBe('{"title":"P","blocks":[]}');
  });
});
