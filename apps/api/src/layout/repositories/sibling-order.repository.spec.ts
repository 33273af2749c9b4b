import { jest } from '@jest/globals';
import { type SqlSession } from '../../database/sql-session';
import { type SqlStatement } from '../../database/sql-statement';
import { SiblingOrderRepository } from './sibling-order.repository';

type Slot = { stays: boolean; sort_key: string | null };
type Statement = SqlStatement<object, unknown>;

/** A transaction that answers the slot statement with `slots`, one per call, and records every statement. */
function txAnswering(...slots: Slot[]) {
  const row = jest.fn((_statement: Statement, _params: object) =>
    Promise.resolve(slots.shift() as unknown),
  );
  const rows = jest.fn((_statement: Statement, _params: object) =>
    Promise.resolve([] as unknown[]),
  );
  return { tx: { row, rows } as unknown as SqlSession, row, rows };
}

const REQUEST = { projectId: 'p1', parentId: 'c1', selfId: 'ct1' };

describe('SiblingOrderRepository.keyAt', () => {
  const order = new SiblingOrderRepository();

  it('without a position answers undefined and runs no statement', async () => {
    const { tx, row, rows } = txAnswering();
    await expect(order.keyAt(tx, 'content', { ...REQUEST, position: undefined })).resolves.toBe(
      undefined,
    );
    expect(row).not.toHaveBeenCalled();
    expect(rows).not.toHaveBeenCalled();
  });

  it('answers the key of the slot at the position, asked with the request as is', async () => {
    const { tx, row, rows } = txAnswering({ stays: false, sort_key: '1500' });
    await expect(order.keyAt(tx, 'content', { ...REQUEST, position: 2 })).resolves.toBe('1500');
    expect(row).toHaveBeenCalledTimes(1);
    const [statement, params] = row.mock.calls[0];
    expect(statement.name).toBe('content.slot');
    expect(params).toEqual({ ...REQUEST, position: 2 });
    expect(rows).not.toHaveBeenCalled();
  });

  it('asks with selfId null for a new node', async () => {
    const { tx, row } = txAnswering({ stays: false, sort_key: '1000' });
    await order.keyAt(tx, 'block', { projectId: 'p1', parentId: 'p1', position: 0, selfId: null });
    expect(row.mock.calls[0][0].name).toBe('block.slot');
    expect(row.mock.calls[0][1]).toEqual({
      projectId: 'p1',
      parentId: 'p1',
      position: 0,
      selfId: null,
    });
  });

  it('answers undefined when the node already is at the position', async () => {
    const { tx, rows } = txAnswering({ stays: true, sort_key: '1500' });
    await expect(order.keyAt(tx, 'row', { ...REQUEST, position: 1 })).resolves.toBeUndefined();
    expect(rows).not.toHaveBeenCalled();
  });

  it('renumbers the parent’s list once when the gap is used up, then asks again', async () => {
    const { tx, row, rows } = txAnswering(
      { stays: false, sort_key: null },
      { stays: false, sort_key: '7000' },
    );
    await expect(order.keyAt(tx, 'column', { ...REQUEST, position: 1 })).resolves.toBe('7000');
    expect(rows).toHaveBeenCalledTimes(1);
    expect(rows.mock.calls[0][0].name).toBe('column.renumber');
    expect(rows.mock.calls[0][1]).toEqual({ projectId: 'p1', parentId: 'c1' });
    expect(row).toHaveBeenCalledTimes(2);
    expect(rows.mock.invocationCallOrder[0]).toBeLessThan(row.mock.invocationCallOrder[1]);
  });

  it('throws when there is still no room after renumbering', async () => {
    const { tx, rows } = txAnswering(
      { stays: false, sort_key: null },
      { stays: false, sort_key: null },
    );
    await expect(order.keyAt(tx, 'content', { ...REQUEST, position: 1 })).rejects.toThrow(
      'content: no room in the list after renumbering',
    );
    expect(rows).toHaveBeenCalledTimes(1);
  });
});
