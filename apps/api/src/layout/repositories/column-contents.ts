import { asJson } from './json';
import { type ContentWrite } from '../layout.records';
import { type ColumnScope } from '../layout.scopes';
import { type Tx } from './transaction';

/**
 * Makes a column's contents exactly `writes`, in that order: listed ids are updated in place,
 * new ones created, unlisted ones deleted. The caller holds the column's lock and has checked
 * that every listed id belongs to this column.
 */
export async function replaceColumnContents(
  tx: Tx,
  scope: Omit<ColumnScope, 'accountId'>,
  writes: readonly ContentWrite[],
): Promise<void> {
  const kept = writes.flatMap((write) => (write.id ? [write.id] : []));
  await tx.content.deleteMany({ where: { columnId: scope.columnId, id: { notIn: kept } } });
  for (const [position, write] of writes.entries()) {
    if (write.id) {
      await tx.content.update({
        where: { id: write.id },
        data: { position, type: write.type, style: asJson(write.style), data: asJson(write.data) },
      });
    }
  }
  const created = writes.flatMap((write, position) =>
    write.id
      ? []
      : [
          {
            projectId: scope.projectId,
            columnId: scope.columnId,
            position,
            type: write.type,
            style: asJson(write.style),
            data: asJson(write.data),
          },
        ],
  );
  if (created.length > 0) await tx.content.createMany({ data: created });
}
