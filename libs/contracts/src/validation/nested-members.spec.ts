import { plainToInstance } from 'class-transformer';
import { BatchDto, BatchOperationDto } from '../batch/batch.dto';
import { BlockStyleDto } from '../block/block-style.dto';
import { CreateColumnDto } from '../column/create-column.dto';
import { UpdateColumnDto } from '../column/update-column.dto';
import { ColumnContentDto } from '../content/column-content.dto';
import { ContentStyleDto } from '../content/content-style.dto';
import { TextDataDto } from '../content/data/text-data.dto';
import { CreateProjectDto } from '../project/create-project.dto';
import { BlockTreeDto } from '../tree/block-tree.dto';
import { ColumnTreeDto } from '../tree/column-tree.dto';
import { ContentTreeDto } from '../tree/content-tree.dto';
import { RowTreeDto } from '../tree/row-tree.dto';
import { validateBody } from './validate-body';
import { CONTRACT_TRANSFORM_OPTIONS } from './validation-options';

const STYLE = {
  backgroundImage: '',
  backgroundRepeat: 'no-repeat',
  backgroundSize: 'cover',
  backgroundPosition: 'center center',
  opacity: 1,
};

type Make = (pointer: string) => unknown;

function textContent(): Record<string, unknown> {
  return { type: 'text', style: { ...STYLE }, data: { html: '<p>Hello</p>' } };
}

function column(pointer: string, content: Make): Record<string, unknown> {
  return { size: 4, contents: [0, 1].map((c) => content(`${pointer}/contents/${c}`)) };
}

/** project > 2 blocks > 2 rows > 2 columns > 2 contents, each content made by `content`. */
function projectTree(content: Make = textContent): Record<string, unknown> {
  return {
    title: 'Imported',
    blocks: [0, 1].map((b) => ({
      description: 'Block',
      style: {},
      rows: [0, 1].map((r) => ({
        description: 'Row',
        columns: [0, 1].map((c) => column(`/blocks/${b}/rows/${r}/columns/${c}`, content)),
      })),
    })),
  };
}

/** Counts how often class-transformer reads the leaves of what it builds. */
function readCounter() {
  let reads = 0;
  const counted = <T extends object>(value: T, key: keyof T & string): T => {
    const sent = value[key];
    Object.defineProperty(value, key, {
      enumerable: true,
      get: () => {
        reads += 1;
        return sent;
      },
    });
    return value;
  };
  const content = (): Record<string, unknown> => ({
    type: 'text',
    style: counted({ ...STYLE }, 'opacity'),
    data: counted({ html: '<p>Hello</p>' }, 'html'),
  });
  return { content, counted, reads: () => reads };
}

describe('nested members', () => {
  it('builds every level of a deep tree as its class', async () => {
    const body = projectTree();
    const result = await validateBody(CreateProjectDto, body);

    expect(result.errors).toEqual([]);
    const project = result.value as CreateProjectDto;
    expect(project).toEqual(body);
    for (const block of project.blocks ?? []) {
      expect(block).toBeInstanceOf(BlockTreeDto);
      expect(block.style).toBeInstanceOf(BlockStyleDto);
      for (const row of block.rows ?? []) {
        expect(row).toBeInstanceOf(RowTreeDto);
        for (const col of row.columns ?? []) {
          expect(col).toBeInstanceOf(ColumnTreeDto);
          for (const content of col.contents ?? []) {
            expect(content).toBeInstanceOf(ContentTreeDto);
            expect(content.style).toBeInstanceOf(ContentStyleDto);
            expect(content.data).toBeInstanceOf(TextDataDto);
          }
        }
      }
    }
  });

  it('reports problems deep in a tree at their pointers, values as sent', async () => {
    const odd: Record<string, unknown> = {
      '/blocks/0/rows/0/columns/0/contents/0': 'text',
      '/blocks/0/rows/0/columns/1/contents/1': [{ type: 'text' }],
      '/blocks/0/rows/1/columns/0/contents/1': { type: 'text', style: [{ opacity: 2 }] },
      '/blocks/0/rows/1/columns/1/contents/0': { type: 'text', style: { opacity: 2 } },
      '/blocks/0/rows/1/columns/1/contents/1': { type: 'text', style: null, data: [] },
      '/blocks/1/rows/0/columns/1/contents/1': { type: 'text', data: { html: 1, src: 'x' } },
    };
    const body = projectTree((pointer) => odd[pointer] ?? textContent());
    const blocks = body.blocks as Record<string, unknown>[];
    blocks[0].style = [];
    (blocks[1].rows as Record<string, unknown>[])[1] = { description: 'Row', columns: {} };

    const result = await validateBody(CreateProjectDto, body);

    const at = (pointer: string, detail: string) => ({ pointer, detail });
    expect(result.errors).toEqual([
      at('/blocks/0/style', 'must be an object'),
      at('/blocks/0/rows/0/columns/0/contents', 'must be an array of objects'),
      at('/blocks/0/rows/0/columns/1/contents', 'must be an array of objects'),
      at('/blocks/0/rows/1/columns/0/contents/1/style', 'must be an object'),
      at('/blocks/0/rows/1/columns/1/contents/0/style/opacity', 'must be a number from 0 to 1'),
      at('/blocks/0/rows/1/columns/1/contents/1/style', 'must be an object'),
      at('/blocks/0/rows/1/columns/1/contents/1/data', 'must be an object'),
      at('/blocks/1/rows/0/columns/1/contents/1/data/src', 'is not a known member'),
      at(
        '/blocks/1/rows/0/columns/1/contents/1/data/html',
        'must be a string of at most 100000 characters',
      ),
      at('/blocks/1/rows/1/columns', 'must be an array of objects'),
    ]);
  });

  it('reports problems of the contents of a column whose rows are valid', async () => {
    const body = {
      size: 4,
      contents: [
        { type: 'text', style: { opacity: 2 } },
        { type: 'text', style: null, data: [] },
        { type: 'text', data: { html: 1, src: 'x' } },
      ],
    };
    const result = await validateBody(CreateColumnDto, body);

    expect(result.errors).toEqual([
      { pointer: '/contents/0/style/opacity', detail: 'must be a number from 0 to 1' },
      { pointer: '/contents/1/style', detail: 'must be an object' },
      { pointer: '/contents/1/data', detail: 'must be an object' },
      { pointer: '/contents/2/data/src', detail: 'is not a known member' },
      {
        pointer: '/contents/2/data/html',
        detail: 'must be a string of at most 100000 characters',
      },
    ]);
  });

  it('leaves what is not an object as sent, whether or not the class was built before', async () => {
    const check = () => {
      const inner = [{ type: 'text' }];
      const style = [STYLE];
      const sent = { contents: [inner, 'x', null, 5, { type: 'text', style }] };
      const column = plainToInstance(UpdateColumnDto, sent, CONTRACT_TRANSFORM_OPTIONS);
      const contents = column.contents as unknown[];
      expect(contents).toHaveLength(5);
      expect(contents[0]).toBe(inner);
      expect(contents.slice(1, 4)).toEqual(['x', null, 5]);
      expect(contents[4]).toBeInstanceOf(ColumnContentDto);
      expect((contents[4] as ColumnContentDto).style).toBe(style);
    };
    check();
    await validateBody(UpdateColumnDto, {});
    check();
  });

  it.each([
    ['a project', CreateProjectDto, (content: Make) => projectTree(content), 16],
    ['a column (members inherited)', CreateColumnDto, (content: Make) => column('', content), 2],
  ])(
    'builds %s in one pass: each sent value is read as often as its own object alone reads it',
    async (_name, cls: new () => object, make: (content: Make) => unknown, contents: number) => {
      const alone = readCounter();
      const sample = alone.content();
      plainToInstance(ContentStyleDto, sample.style, CONTRACT_TRANSFORM_OPTIONS);
      plainToInstance(TextDataDto, sample.data, CONTRACT_TRANSFORM_OPTIONS);
      expect(alone.reads()).toBeGreaterThan(0);

      // No other class's map reaches the body's own class: validateBody maps it, once.
      await validateBody(cls, {});
      const inTree = readCounter();
      const instance = plainToInstance(cls, make(inTree.content), CONTRACT_TRANSFORM_OPTIONS);

      expect(inTree.reads()).toBe(alone.reads() * contents);
      expect(JSON.parse(JSON.stringify(instance))).toEqual(make(textContent));
    },
  );

  it('never copies a member kept as sent', async () => {
    await validateBody(BatchDto, {});
    const counter = readCounter();
    const body = counter.counted({ title: 'x' }, 'title');
    const batch = plainToInstance(
      BatchDto,
      { operations: [{ method: 'PUT', path: '/projects/p', body }] },
      CONTRACT_TRANSFORM_OPTIONS,
    );

    expect(batch.operations[0]).toBeInstanceOf(BatchOperationDto);
    expect(batch.operations[0]?.body).toBe(body);
    expect(counter.reads()).toBe(0);
  });
});
