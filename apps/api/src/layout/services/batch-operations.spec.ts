import { type BatchOperationDto } from '@layout/contracts';
import { RequestValidationError, ResourceNotFoundError } from '../../common/errors';
import { TARGET_ID } from '../../../../../test/support/layout-service-fakes';
import {
  addressedBy,
  assertShape,
  BatchRefs,
  OPERATION_STATUS,
  type OperationKind,
  resolveBodyRefs,
  resolvedIds,
} from './batch-operations';

// How a batch reads each of its operations: the node write its method and path name (as its
// route would take it), the `$<ref>`s of earlier operations in its path and body, and the
// parts of an operation that no route takes (a 400 that points into the batch's body).

const P = '/projects/p1';
const B = `${P}/blocks/b1`;
const R = `${B}/rows/r1`;
const C = `${R}/columns/c1`;
const CT = `${C}/contents/ct1`;

const PROJECT_IDS = { projectId: 'p1' };
const BLOCK_IDS = { ...PROJECT_IDS, blockId: 'b1' };
const ROW_IDS = { ...BLOCK_IDS, rowId: 'r1' };
const COLUMN_IDS = { ...ROW_IDS, columnId: 'c1' };
const CONTENT_IDS = { ...COLUMN_IDS, contentId: 'ct1' };

/** An id of the shape the service gives, and another. */
const ID_1 = '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a87';
const ID_2 = '0190a6f0-7c4e-7b8a-9b1e-3f2d1c0b9a88';

/** A `$<ref>` nobody made: the 400 it answers, at `pointer`. */
const unknownRef = (ref: string, pointer: string) =>
  expect.objectContaining({
    constructor: RequestValidationError,
    errors: [{ pointer, detail: `names ${ref}, which no earlier operation of the batch made` }],
  });

/** What `attempt` throws (it must throw). */
function thrownBy(attempt: () => unknown): unknown {
  try {
    attempt();
  } catch (error) {
    return error;
  }
  throw new Error('it did not throw');
}

describe('addressedBy', () => {
  const addressed = (kind: OperationKind, level: string, ids: object) => ({ kind, level, ids });

  it.each([
    ['POST', `${P}/blocks`, addressed('create', 'block', PROJECT_IDS)],
    ['PUT', B, addressed('update', 'block', BLOCK_IDS)],
    ['DELETE', B, addressed('delete', 'block', BLOCK_IDS)],
    ['POST', `${B}/move`, addressed('move', 'block', BLOCK_IDS)],
    ['POST', `${B}/duplicate`, addressed('duplicate', 'block', BLOCK_IDS)],
    ['POST', `${B}/rows`, addressed('create', 'row', BLOCK_IDS)],
    ['PUT', R, addressed('update', 'row', ROW_IDS)],
    ['DELETE', R, addressed('delete', 'row', ROW_IDS)],
    ['POST', `${R}/move`, addressed('move', 'row', ROW_IDS)],
    ['POST', `${R}/duplicate`, addressed('duplicate', 'row', ROW_IDS)],
    ['POST', `${R}/columns`, addressed('create', 'column', ROW_IDS)],
    ['PUT', C, addressed('update', 'column', COLUMN_IDS)],
    ['DELETE', C, addressed('delete', 'column', COLUMN_IDS)],
    ['POST', `${C}/move`, addressed('move', 'column', COLUMN_IDS)],
    ['POST', `${C}/duplicate`, addressed('duplicate', 'column', COLUMN_IDS)],
    ['POST', `${C}/contents`, addressed('create', 'content', COLUMN_IDS)],
    ['PUT', CT, addressed('update', 'content', CONTENT_IDS)],
    ['DELETE', CT, addressed('delete', 'content', CONTENT_IDS)],
    ['POST', `${CT}/move`, addressed('move', 'content', CONTENT_IDS)],
    ['POST', `${CT}/duplicate`, addressed('duplicate', 'content', CONTENT_IDS)],
    // Ids as written: a `$<ref>` is resolved later, an id of the wrong shape is a 404 later.
    [
      'POST',
      `${P}/blocks/$newBlock/rows/$newRow/columns`,
      addressed('create', 'column', { ...PROJECT_IDS, blockId: '$newBlock', rowId: '$newRow' }),
    ],
    [
      'PUT',
      `${P}/blocks/not-an-id`,
      addressed('update', 'block', { ...PROJECT_IDS, blockId: 'not-an-id' }),
    ],
  ])('takes %s %s', (method, path, operation) => {
    expect(addressedBy(method, path)).toEqual(operation);
  });

  it.each([
    // The project itself.
    ['POST', '/projects'],
    ['PUT', P],
    ['DELETE', P],
    ['GET', P],
    ['POST', `${P}/duplicate`],
    // Restores, history, events, the batch itself.
    ['POST', `${P}/revisions/3/restore`],
    ['GET', `${P}/revisions`],
    ['POST', `${P}/events/tickets`],
    ['POST', `${P}/batch`],
    // Members, links and presence.
    ['POST', `${P}/members`],
    ['PUT', `${P}/members/acc-2`],
    ['DELETE', `${P}/members/acc-2`],
    ['POST', `${P}/links`],
    ['PUT', `${P}/presence`],
    // Reads.
    ['GET', `${P}/blocks`],
    ['GET', B],
    ['GET', `${R}/columns`],
    ['GET', CT],
    // Trailing segments, and segments out of place.
    ['POST', `${B}/move/again`],
    ['POST', `${R}/duplicate/x`],
    ['PUT', `${R}/extra`],
    ['POST', `${CT}/contents`],
    ['DELETE', `${CT}/x`],
    ['POST', `${P}/rows`],
    ['POST', `${B}/columns`],
    ['POST', `${P}/move`],
    ['POST', `${B}/rows/r1/blocks`],
    // The wrong method for the path.
    ['PUT', `${P}/blocks`],
    ['DELETE', `${B}/rows`],
    ['POST', B],
    ['POST', CT],
    ['PUT', `${R}/move`],
    ['DELETE', `${C}/duplicate`],
    ['GET', `${C}/move`],
    ['PATCH', R],
    ['post', `${P}/blocks`],
    // Not a path of the API.
    ['POST', 'projects/p1/blocks'],
    ['POST', '//projects/p1/blocks'],
    ['POST', '/projects//blocks'],
    ['POST', '/accounts/me'],
    ['POST', ''],
    ['POST', `${P}/blocks?position=1`],
  ])('refuses %s %s', (method, path) => {
    expect(addressedBy(method, path)).toBeUndefined();
  });
});

describe('OPERATION_STATUS', () => {
  it('is what each route answers: 201 for what makes a node, 200 for a change, 204 for a delete', () => {
    expect(OPERATION_STATUS).toEqual({
      create: 201,
      duplicate: 201,
      update: 200,
      move: 200,
      delete: 204,
    });
  });
});

describe('BatchRefs', () => {
  it('leaves an id that is no ref as it is', () => {
    expect(new BatchRefs().resolve(ID_1, '/operations/0/path')).toBe(ID_1);
  });

  it('resolves a $ref to the id of the node an earlier operation made and named', () => {
    const refs = new BatchRefs();
    expect(refs.has('newRow')).toBe(false);
    refs.define('newRow', ID_1);
    refs.define('newColumn', ID_2);
    expect(refs.has('newRow')).toBe(true);
    expect(refs.resolve('$newRow', '/x')).toBe(ID_1);
    expect(refs.resolve('$newColumn', '/x')).toBe(ID_2);
  });

  it.each(['$other', '$', '$newrow', '$$newRow'])(
    'refuses %s, which no earlier operation made, with a 400 at the pointer given',
    (ref) => {
      const refs = new BatchRefs();
      refs.define('newRow', ID_1);
      expect(() => refs.resolve(ref, '/operations/4/body/rowId')).toThrow(
        unknownRef(ref, '/operations/4/body/rowId'),
      );
    },
  );
});

describe('resolvedIds', () => {
  const POINTER = '/operations/2/path';

  it('answers the ids of the path, each $ref resolved', () => {
    const refs = new BatchRefs();
    refs.define('newRow', ID_2);
    const operation = {
      kind: 'create',
      level: 'column',
      ids: { projectId: ID_1, blockId: TARGET_ID, rowId: '$newRow' },
    } as const;
    expect(resolvedIds(operation, refs, POINTER)).toEqual({
      projectId: ID_1,
      blockId: TARGET_ID,
      rowId: ID_2,
    });
  });

  it('refuses a $ref no earlier operation made with a 400 pointing at the path', () => {
    const operation = {
      kind: 'update',
      level: 'row',
      ids: { projectId: ID_1, blockId: ID_2, rowId: '$nope' },
    } as const;
    expect(() => resolvedIds(operation, new BatchRefs(), POINTER)).toThrow(
      unknownRef('$nope', POINTER),
    );
  });

  it.each([
    ['projectId', 'Project'],
    ['blockId', 'Block'],
    ['rowId', 'Row'],
    ['columnId', 'Column'],
    ['contentId', 'Content'],
  ])(
    'answers an id of the wrong shape in %s as a 404 of the %s, as a path of its own would',
    (param, resource) => {
      const ids: Record<string, string> = {
        projectId: ID_1,
        blockId: ID_1,
        rowId: ID_1,
        columnId: ID_1,
        contentId: ID_1,
      };
      for (const malformed of ['x', ID_1.toUpperCase(), `${ID_1}'--`, ID_1.replace(/-/g, ''), '']) {
        const operation = {
          kind: 'delete',
          level: 'content',
          ids: { ...ids, [param]: malformed },
        } as const;
        expect(thrownBy(() => resolvedIds(operation, new BatchRefs(), POINTER))).toMatchObject({
          constructor: ResourceNotFoundError,
          resource,
        });
      }
    },
  );
});

describe('resolveBodyRefs', () => {
  const POINTER = '/operations/1/body';

  it.each([
    ['row', 'blockId'],
    ['column', 'rowId'],
    ['content', 'columnId'],
  ] as const)('resolves the other parent a %s’s move or copy names in %s', (level, member) => {
    const refs = new BatchRefs();
    refs.define('parent', ID_1);
    const body: Record<string, unknown> = { [member]: '$parent', position: 0 };
    resolveBodyRefs(level, body, refs, POINTER);
    expect(body).toEqual({ [member]: ID_1, position: 0 });
    const plain: Record<string, unknown> = { [member]: ID_2 };
    resolveBodyRefs(level, plain, refs, POINTER);
    expect(plain).toEqual({ [member]: ID_2 });
    expect(() => resolveBodyRefs(level, { [member]: '$gone' }, refs, POINTER)).toThrow(
      unknownRef('$gone', `${POINTER}/${member}`),
    );
  });

  it('leaves a block’s body as it is: a block names no other parent', () => {
    const body = { blockId: '$parent', position: 1 };
    resolveBodyRefs('block', body, new BatchRefs(), POINTER);
    expect(body).toEqual({ blockId: '$parent', position: 1 });
  });

  it('resolves the _id of each element of a column’s contents, and leaves the others', () => {
    const refs = new BatchRefs();
    refs.define('text', ID_1);
    const body = {
      size: 4,
      contents: [{ _id: '$text', type: 'text' }, { type: 'empty' }, { _id: ID_2, type: 'empty' }],
    };
    resolveBodyRefs('column', body, refs, POINTER);
    expect(body.contents).toEqual([
      { _id: ID_1, type: 'text' },
      { type: 'empty' },
      { _id: ID_2, type: 'empty' },
    ]);
    expect(() =>
      resolveBodyRefs('column', { contents: [{ type: 'empty' }, { _id: '$x' }] }, refs, POINTER),
    ).toThrow(unknownRef('$x', `${POINTER}/contents/1/_id`));
  });

  it('leaves a body without ids as it is', () => {
    const body = { size: 6, position: 2 };
    resolveBodyRefs('column', body, new BatchRefs(), POINTER);
    expect(body).toEqual({ size: 6, position: 2 });
  });
});

describe('assertShape', () => {
  const POINTER = '/operations/3';
  const operation = (parts: Partial<BatchOperationDto>): BatchOperationDto => ({
    method: 'POST',
    path: `${P}/blocks`,
    ...parts,
  });
  const refused = (pointer: string, detail: unknown) =>
    expect.objectContaining({ constructor: RequestValidationError, errors: [{ pointer, detail }] });

  it('refuses what no route of a batch takes at /operations/<i>/path, naming the operation', () => {
    const restore = operation({ path: `${P}/revisions/3/restore` });
    expect(() => assertShape(restore, undefined, new BatchRefs(), POINTER)).toThrow(
      refused(
        `${POINTER}/path`,
        expect.stringContaining(`POST ${P}/revisions/3/restore is not an operation of a batch`),
      ),
    );
  });

  it('refuses a DELETE with a body at /operations/<i>/body, and takes one without', () => {
    const withBody = operation({ method: 'DELETE', path: B, body: {} });
    expect(() => assertShape(withBody, 'delete', new BatchRefs(), POINTER)).toThrow(
      refused(`${POINTER}/body`, 'must be left out: a DELETE takes no body'),
    );
    expect(() =>
      assertShape(operation({ method: 'DELETE', path: B }), 'delete', new BatchRefs(), POINTER),
    ).not.toThrow();
  });

  it.each(['update', 'delete', 'move'] as const)(
    'refuses a ref on a %s, which makes no node, at /operations/<i>/ref',
    (kind) => {
      expect(() => assertShape(operation({ ref: 'x' }), kind, new BatchRefs(), POINTER)).toThrow(
        refused(`${POINTER}/ref`, 'names the node a create or a copy makes: leave it out'),
      );
    },
  );

  it.each(['create', 'duplicate'] as const)('takes a new ref on a %s', (kind) => {
    const refs = new BatchRefs();
    refs.define('other', ID_1);
    expect(() => assertShape(operation({ ref: 'mine' }), kind, refs, POINTER)).not.toThrow();
  });

  it('refuses a ref an earlier operation gave already', () => {
    const refs = new BatchRefs();
    refs.define('mine', ID_1);
    expect(() => assertShape(operation({ ref: 'mine' }), 'create', refs, POINTER)).toThrow(
      refused(`${POINTER}/ref`, 'is the ref of an earlier operation of the batch'),
    );
  });

  it('takes every kind without a ref', () => {
    for (const kind of ['create', 'update', 'move', 'duplicate'] as const) {
      expect(() => assertShape(operation({}), kind, new BatchRefs(), POINTER)).not.toThrow();
    }
  });
});
