import {
  type BatchOperationDto,
  isObjectValue,
  CreateBlockDto,
  CreateColumnDto,
  CreateContentDto,
  CreateRowDto,
  DuplicateBlockDto,
  DuplicateColumnDto,
  DuplicateContentDto,
  DuplicateRowDto,
  MoveBlockDto,
  MoveColumnDto,
  MoveContentDto,
  MoveRowDto,
  UpdateBlockDto,
  UpdateColumnDto,
  UpdateContentDto,
  UpdateRowDto,
} from '@layout/contracts';
import { RequestValidationError } from '../../common/errors';
import { RESOURCE_ID } from '../../common/pipes/resource-id';
import { SEGMENTS } from '../layout.paths';
import { CHILD_LEVELS, type ChildLevel, TREE_LEVELS } from '../repositories/sql/tree-levels';
import { LEVELS } from './node-levels';
import { notFound } from './not-found';

/** What a batch's operation does to a node, as its method and path say. */
export type OperationKind = 'create' | 'update' | 'delete' | 'move' | 'duplicate';

/** What each kind of operation answers when it succeeds. */
export const OPERATION_STATUS: Record<OperationKind, number> = {
  create: 201,
  duplicate: 201,
  update: 200,
  move: 200,
  delete: 204,
};

/** The body each operation takes, by level: the DTO its route validates it with. */
export const OPERATION_BODIES: Record<
  ChildLevel,
  Record<Exclude<OperationKind, 'delete'>, new () => object>
> = {
  block: {
    create: CreateBlockDto,
    update: UpdateBlockDto,
    move: MoveBlockDto,
    duplicate: DuplicateBlockDto,
  },
  row: { create: CreateRowDto, update: UpdateRowDto, move: MoveRowDto, duplicate: DuplicateRowDto },
  column: {
    create: CreateColumnDto,
    update: UpdateColumnDto,
    move: MoveColumnDto,
    duplicate: DuplicateColumnDto,
  },
  content: {
    create: CreateContentDto,
    update: UpdateContentDto,
    move: MoveContentDto,
    duplicate: DuplicateContentDto,
  },
};

/** An operation's node: its kind, its level and the ids of its path (a create's: its parent's). */
export interface AddressedOperation {
  readonly kind: OperationKind;
  readonly level: ChildLevel;
  /** By path parameter (`projectId`, `blockId`, …), as written: `$<ref>` not yet resolved. */
  readonly ids: Readonly<Record<string, string>>;
}

const ACTIONS = { move: 'move', duplicate: 'duplicate' } as const;

/**
 * The write of a node that `method` on `path` is, as its route would take it; undefined for
 * anything else (the project itself, a restore, a read, a path of no route).
 */
export function addressedBy(method: string, path: string): AddressedOperation | undefined {
  const [empty, projects, projectId, ...rest] = path.split('/');
  if (empty !== '' || projects !== 'projects' || !projectId) return undefined;
  const ids: Record<string, string> = { projectId };
  let at = 0;
  for (const level of CHILD_LEVELS) {
    if (rest[at] !== SEGMENTS[level]) return undefined;
    at += 1;
    if (at === rest.length) return method === 'POST' ? { kind: 'create', level, ids } : undefined;
    ids[TREE_LEVELS[level].idParam] = rest[at];
    at += 1;
    if (at === rest.length) {
      if (method === 'PUT') return { kind: 'update', level, ids };
      return method === 'DELETE' ? { kind: 'delete', level, ids } : undefined;
    }
    const action = ACTIONS[rest[at] as keyof typeof ACTIONS] as OperationKind | undefined;
    if (action !== undefined && at === rest.length - 1) {
      return method === 'POST' ? { kind: action, level, ids } : undefined;
    }
  }
  return undefined;
}

/** The ids of the nodes that earlier operations of a batch made, by the `ref` they gave. */
export class BatchRefs {
  private readonly made = new Map<string, string>();

  /** `value`, or the id its `$<ref>` stands for; a `$<ref>` no earlier operation made: 400. */
  resolve(value: string, pointer: string): string {
    if (!value.startsWith('$')) return value;
    const id = this.made.get(value.slice(1));
    if (id === undefined) {
      throw refusedShape(pointer, `names ${value}, which no earlier operation of the batch made`);
    }
    return id;
  }

  /** Names the node an operation made. */
  define(ref: string, id: string): void {
    this.made.set(ref, id);
  }

  has(ref: string): boolean {
    return this.made.has(ref);
  }
}

/**
 * The ids of an operation's path, each `$<ref>` resolved; an id of the wrong shape names
 * nothing (404, as in a path of its own).
 */
export function resolvedIds(
  operation: AddressedOperation,
  refs: BatchRefs,
  pointer: string,
): Record<string, string> {
  const levels = [...CHILD_LEVELS];
  return Object.fromEntries(
    Object.entries(operation.ids).map(([param, value]) => {
      const id = refs.resolve(value, pointer);
      if (!RESOURCE_ID.test(id)) {
        const level = levels.find((l) => TREE_LEVELS[l].idParam === param);
        notFound(level === undefined ? 'Project' : LEVELS[level].name);
      }
      return [param, id];
    }),
  );
}

/**
 * Resolves the `$<ref>` ids of a body as sent (before its validation, which may drop a member
 * the operation ignores): the parent that a move or a copy names, and the `_id`s of a column's
 * contents.
 */
export function resolveBodyRefs(
  level: ChildLevel,
  body: Record<string, unknown>,
  refs: BatchRefs,
  pointer: string,
): void {
  const { parentMember } = LEVELS[level];
  const parent = parentMember === undefined ? undefined : body[parentMember];
  if (parentMember !== undefined && typeof parent === 'string') {
    body[parentMember] = refs.resolve(parent, `${pointer}/${parentMember}`);
  }
  const contents = body.contents;
  if (!Array.isArray(contents)) return;
  contents.forEach((element: unknown, index) => {
    if (isObjectValue(element) && typeof element._id === 'string') {
      element._id = refs.resolve(element._id, `${pointer}/contents/${index}/_id`);
    }
  });
}

/** What the batch's own shape breaks: a 400 that points into the batch's body. */
export function refusedShape(pointer: string, detail: string): RequestValidationError {
  return new RequestValidationError([{ pointer, detail }]);
}

/** The operation's parts that a batch allows with its kind (a ref names what a create made). */
export function assertShape(
  operation: BatchOperationDto,
  kind: OperationKind | undefined,
  refs: BatchRefs,
  pointer: string,
): void {
  if (kind === undefined) {
    throw refusedShape(
      `${pointer}/path`,
      `${operation.method} ${operation.path} is not an operation of a batch: a batch runs the ` +
        'creates, updates, deletes, moves and copies of nodes inside its project',
    );
  }
  if (operation.method === 'DELETE' && operation.body !== undefined) {
    throw refusedShape(`${pointer}/body`, 'must be left out: a DELETE takes no body');
  }
  if (operation.ref === undefined) return;
  if (kind !== 'create' && kind !== 'duplicate') {
    throw refusedShape(`${pointer}/ref`, 'names the node a create or a copy makes: leave it out');
  }
  if (refs.has(operation.ref)) {
    throw refusedShape(`${pointer}/ref`, 'is the ref of an earlier operation of the batch');
  }
}
