import { CreateBlockDto } from '../block/create-block.dto';
import { DEFAULT_BLOCK_STYLE } from '../block/block-style';
import { CreateColumnDto } from '../column/create-column.dto';
import { DEFAULT_CONTENT_STYLE } from '../content/content-style';
import { CreateContentDto } from '../content/create-content.dto';
import { TextDataDto } from '../content/data/text-data.dto';
import { CreateProjectDto } from '../project/create-project.dto';
import { CreateRowDto } from '../row/create-row.dto';
import { type Constructor } from '../validation/to-instance';
import { validateBody } from '../validation/validate-body';
import { BlockTreeDto } from './block-tree.dto';
import { ColumnTreeDto } from './column-tree.dto';
import { ContentTreeDto } from './content-tree.dto';
import { RowTreeDto } from './row-tree.dto';

// Part three, "Whole trees in one request": a create takes its node's children in the shape a
// read answers, and the members a read adds (ReadMember) are accepted and dropped, so that a
// read posted back makes a copy with new ids.

const ID = '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a87';
const TIMES = { createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-02T00:00:00.000Z' };

/** A quote whose own keys are named like the members a read adds: they are data, and stay. */
const QUOTE = {
  options: { currency: 'EUR' },
  content: {
    fields: [
      { id: '_id', label: 'Ref', show: true },
      { id: 'revision', label: 'Rev', show: false },
    ],
    items: [{ id: 'i1', _id: 'sku-1', revision: 'b' }],
  },
};

/** A project as `GET /projects/<p>` answers it, with every member a read adds. */
const PROJECT_READ = {
  _id: ID,
  title: 'Proposal',
  revision: 7,
  role: 'owner',
  ...TIMES,
  blocks: [
    {
      _id: ID,
      description: 'Intro',
      style: DEFAULT_BLOCK_STYLE,
      rows: [
        {
          _id: ID,
          description: '',
          columns: [
            {
              _id: ID,
              size: '8',
              contents: [
                {
                  _id: ID,
                  type: 'text',
                  style: DEFAULT_CONTENT_STYLE,
                  data: { html: '<p>Hello</p>' },
                },
                { _id: ID, type: 'quote', style: DEFAULT_CONTENT_STYLE, data: QUOTE },
                { _id: ID, type: 'empty', style: DEFAULT_CONTENT_STYLE, data: {} },
              ],
            },
            { _id: ID, size: '4', contents: [] },
          ],
        },
      ],
      ...TIMES,
    },
    { _id: ID, description: '', style: DEFAULT_BLOCK_STYLE, rows: [], ...TIMES },
  ],
};

/** The same project as its create takes it: without what a read adds, sizes as numbers. */
const PROJECT_CREATED = {
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
              size: 8,
              contents: [
                { type: 'text', style: DEFAULT_CONTENT_STYLE, data: { html: '<p>Hello</p>' } },
                { type: 'quote', style: DEFAULT_CONTENT_STYLE, data: QUOTE },
                { type: 'empty', style: DEFAULT_CONTENT_STYLE, data: {} },
              ],
            },
            { size: 4, contents: [] },
          ],
        },
      ],
    },
    { description: '', style: DEFAULT_BLOCK_STYLE, rows: [] },
  ],
};

/** The names of every member of `value`, at any depth (a content's data left out). */
function memberNames(value: unknown, names = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const element of value) memberNames(element, names);
  } else if (value !== null && typeof value === 'object') {
    for (const [name, member] of Object.entries(value)) {
      names.add(name);
      if (name !== 'data') memberNames(member, names);
    }
  }
  return names;
}

describe('ReadMember', () => {
  it.each([
    [
      'CreateProjectDto',
      CreateProjectDto,
      { title: 'P' },
      ['_id', 'revision', 'createdAt', 'updatedAt', 'role'],
    ],
    ['BlockTreeDto', BlockTreeDto, { description: 'B' }, ['_id', 'createdAt', 'updatedAt']],
    ['CreateBlockDto', CreateBlockDto, { description: 'B' }, ['_id', 'createdAt', 'updatedAt']],
    ['RowTreeDto', RowTreeDto, {}, ['_id']],
    ['CreateRowDto', CreateRowDto, {}, ['_id']],
    ['ColumnTreeDto', ColumnTreeDto, { size: 6 }, ['_id']],
    ['CreateColumnDto', CreateColumnDto, { size: 6 }, ['_id']],
    ['ContentTreeDto', ContentTreeDto, { type: 'empty' }, ['_id']],
    ['CreateContentDto', CreateContentDto, { type: 'empty' }, ['_id']],
  ] as const)(
    '%s accepts the members a read adds to its node, and drops them',
    async (_name, cls, body, members) => {
      for (const member of members) {
        for (const read of [ID, 7, TIMES.createdAt, 'owner', null, { any: 'thing' }]) {
          const result = await validateBody(cls as Constructor<object>, {
            ...body,
            [member]: read,
          });
          expect(result.errors).toEqual([]);
          expect(result.value).toEqual(body);
          expect(Object.keys(result.value ?? {})).not.toContain(member);
        }
      }
    },
  );

  it('drops them all at once, and keeps every other member', async () => {
    const result = await validateBody(CreateBlockDto, {
      _id: ID,
      description: 'B',
      position: 2,
      ...TIMES,
    });
    expect(result.value).toEqual({ description: 'B', position: 2 });
  });
});

describe('a read posted back as a create', () => {
  it('a project read, with every member a read adds, validates as CreateProjectDto, without them', async () => {
    const result = await validateBody(CreateProjectDto, PROJECT_READ);
    expect(result.errors).toEqual([]);
    expect(result.value).toEqual(PROJECT_CREATED);
    const names = memberNames(result.value);
    for (const added of ['_id', 'revision', 'createdAt', 'updatedAt', 'role']) {
      expect(names.has(added)).toBe(false);
    }
  });

  it('builds each level of it as the tree DTO of its level, each content’s data as of its type', async () => {
    const { value } = await validateBody(CreateProjectDto, PROJECT_READ);
    const block = value?.blocks?.[0];
    const row = block?.rows?.[0];
    const column = row?.columns?.[0];
    expect(block).toBeInstanceOf(BlockTreeDto);
    expect(row).toBeInstanceOf(RowTreeDto);
    expect(column).toBeInstanceOf(ColumnTreeDto);
    expect(column?.contents?.[0]).toBeInstanceOf(ContentTreeDto);
    expect(column?.contents?.[0].data).toBeInstanceOf(TextDataDto);
  });

  it('keeps the keys of a content’s data that are named like the members a read adds', async () => {
    const { value } = await validateBody(CreateProjectDto, PROJECT_READ);
    const quote = value?.blocks?.[0].rows?.[0].columns?.[0].contents?.[1].data;
    expect(quote).toEqual(QUOTE);
  });

  type Project = typeof PROJECT_CREATED;
  it.each([
    ['CreateBlockDto', CreateBlockDto, (p: Project) => p.blocks[0]],
    ['CreateRowDto', CreateRowDto, (p: Project) => p.blocks[0].rows[0]],
    ['CreateColumnDto', CreateColumnDto, (p: Project) => p.blocks[0].rows[0].columns[0]],
    [
      'CreateContentDto',
      CreateContentDto,
      (p: Project) => p.blocks[0].rows[0].columns[0].contents[1],
    ],
  ] as const)(
    'a read of a node validates as %s, without what the read adds',
    async (_name, cls, nodeOf) => {
      const result = await validateBody(
        cls as Constructor<object>,
        nodeOf(PROJECT_READ as unknown as Project),
      );
      expect(result.errors).toEqual([]);
      expect(result.value).toEqual(nodeOf(PROJECT_CREATED));
    },
  );

  it('points an error deep in the tree into the body', async () => {
    const body = JSON.parse(JSON.stringify(PROJECT_READ)) as typeof PROJECT_READ;
    body.blocks[0].rows[0].columns[1].size = '13';
    const result = await validateBody(CreateProjectDto, body);
    expect(result.errors).toEqual([
      { pointer: '/blocks/0/rows/0/columns/1/size', detail: 'must be an integer from 1 to 12' },
    ]);
  });
});
