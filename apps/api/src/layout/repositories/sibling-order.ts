import { Prisma } from '../../generated/prisma/client';
import { type Tx } from './transaction';

// Each list keeps dense positions 0..n-1 per parent. Callers hold a lock on the parent row, so
// two transactions never renumber the same list at once.
const SIBLINGS = {
  block: { table: Prisma.raw('"blocks"'), parent: Prisma.raw('"project_id"') },
  row: { table: Prisma.raw('"rows"'), parent: Prisma.raw('"block_id"') },
  column: { table: Prisma.raw('"columns"'), parent: Prisma.raw('"row_id"') },
  content: { table: Prisma.raw('"contents"'), parent: Prisma.raw('"column_id"') },
} as const;

export type SiblingKind = keyof typeof SIBLINGS;

async function countSiblings(tx: Tx, kind: SiblingKind, parentId: string): Promise<number> {
  const { table, parent } = SIBLINGS[kind];
  const [{ count }] = await tx.$queryRaw<[{ count: number }]>`
    SELECT count(*)::int AS count FROM ${table} WHERE ${parent} = ${parentId}::uuid`;
  return count;
}

/**
 * Makes room for a new item and returns its position: the requested index, or the end when
 * none is requested or it lies past the end.
 */
export async function openSlot(
  tx: Tx,
  kind: SiblingKind,
  parentId: string,
  requested: number | undefined,
): Promise<number> {
  const count = await countSiblings(tx, kind, parentId);
  if (requested === undefined || requested >= count) return count;
  const { table, parent } = SIBLINGS[kind];
  await tx.$executeRaw`
    UPDATE ${table} SET position = position + 1
    WHERE ${parent} = ${parentId}::uuid AND position >= ${requested}`;
  return requested;
}

/** Moves an item to `to` (past the end: to the end), shifting the items in between. */
export async function moveToSlot(
  tx: Tx,
  kind: SiblingKind,
  parentId: string,
  id: string,
  to: number,
): Promise<void> {
  const { table, parent } = SIBLINGS[kind];
  const [current] = await tx.$queryRaw<{ position: number }[]>`
    SELECT position FROM ${table} WHERE id = ${id}::uuid`;
  if (!current) return;
  const target = Math.min(to, (await countSiblings(tx, kind, parentId)) - 1);
  const from = current.position;
  if (target === from) return;
  if (target < from) {
    await tx.$executeRaw`
      UPDATE ${table} SET position = CASE WHEN id = ${id}::uuid THEN ${target} ELSE position + 1 END
      WHERE ${parent} = ${parentId}::uuid AND position BETWEEN ${target} AND ${from}`;
  } else {
    await tx.$executeRaw`
      UPDATE ${table} SET position = CASE WHEN id = ${id}::uuid THEN ${target} ELSE position - 1 END
      WHERE ${parent} = ${parentId}::uuid AND position BETWEEN ${from} AND ${target}`;
  }
}

/** Closes the gap an item left behind when it was deleted from `position`. */
export async function closeSlot(
  tx: Tx,
  kind: SiblingKind,
  parentId: string,
  position: number,
): Promise<void> {
  const { table, parent } = SIBLINGS[kind];
  await tx.$executeRaw`
    UPDATE ${table} SET position = position - 1
    WHERE ${parent} = ${parentId}::uuid AND position > ${position}`;
}
