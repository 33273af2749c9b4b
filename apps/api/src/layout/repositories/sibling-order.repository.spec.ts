import { jest } from '@jest/globals';
import { sqlStatement } from '../../database/sql-statement';
import { type Round, type Step } from '../../database/unit-of-work';
import { fakeConnection } from '../../../../../test/support/layout-service-fakes';
import { type PlaceRequest, SiblingOrderRepository } from './sibling-order.repository';
import { type ChildLevel } from './sql/tree-levels';

type Slot = { stays: boolean; sort_key: string | null };

/** What the work placed by `placed` sends: one statement, in the round it is given. */
const PLACED_WRITE = sqlStatement<{ sortKey: string | null }, never>(
  'sibling-order-spec.write',
  'SELECT $sortKey::bigint',
);

/**
 * A connection that answers the slot statements with `slots`, one per statement (none left: no
 * row), a renumbering and the placed write with no row; it records every statement and round.
 */
function answering(...slots: Slot[]) {
  return fakeConnection((statement) =>
    statement.name.endsWith('-slot') || statement.name.endsWith('-slot-after')
      ? slots.splice(0, 1)
      : [],
  );
}

const REQUEST = { projectId: 'p1', parentId: 'c1', selfId: 'ct1' };

describe('SiblingOrderRepository', () => {
  const order = new SiblingOrderRepository();

  describe('keyAt', () => {
    const keyAt = (
      connection: ReturnType<typeof answering>,
      level: ChildLevel,
      request: PlaceRequest,
    ) => connection.run((round) => order.keyAt(round, level, request));

    it('answers the key of the slot at the position, asked with the request as is, in one round', async () => {
      const connection = answering({ stays: false, sort_key: '1500' });
      await expect(keyAt(connection, 'content', { ...REQUEST, position: 2 })).resolves.toBe('1500');
      expect(connection.rounds).toEqual([['sibling-order.content-slot']]);
      expect(connection.sent[0].params).toEqual({ ...REQUEST, position: 2 });
    });

    it('asks with selfId null for a new node', async () => {
      const connection = answering({ stays: false, sort_key: '1000' });
      await keyAt(connection, 'block', {
        projectId: 'p1',
        parentId: 'p1',
        position: 0,
        selfId: null,
      });
      expect(connection.sent[0].statement.name).toBe('sibling-order.block-slot');
      expect(connection.sent[0].params).toEqual({
        projectId: 'p1',
        parentId: 'p1',
        position: 0,
        selfId: null,
      });
    });

    it('answers undefined when the node already is at the position', async () => {
      const connection = answering({ stays: true, sort_key: '1500' });
      await expect(keyAt(connection, 'row', { ...REQUEST, position: 1 })).resolves.toBeUndefined();
      expect(connection.rounds).toEqual([['sibling-order.row-slot']]);
    });

    it('asks the slot right after a sibling with the slot-after statement', async () => {
      const connection = answering({ stays: false, sort_key: '2500' });
      const request = { projectId: 'p1', parentId: 'c1', afterId: 'ct1' };
      await expect(keyAt(connection, 'content', request)).resolves.toBe('2500');
      expect(connection.rounds).toEqual([['sibling-order.content-slot-after']]);
      expect(connection.sent[0].params).toEqual(request);
    });

    it('renumbers the parent’s list once when the gap is used up, then asks again in the same round', async () => {
      const connection = answering(
        { stays: false, sort_key: null },
        { stays: false, sort_key: '7000' },
      );
      await expect(keyAt(connection, 'column', { ...REQUEST, position: 1 })).resolves.toBe('7000');
      expect(connection.rounds).toEqual([
        ['sibling-order.column-slot'],
        ['sibling-order.column-renumber', 'sibling-order.column-slot'],
      ]);
      expect(connection.sent[1].params).toEqual({ projectId: 'p1', parentId: 'c1' });
      expect(connection.sent[2].params).toEqual({ ...REQUEST, position: 1 });
    });

    it('renumbers right after a sibling too, then asks the slot after it again', async () => {
      const connection = answering(
        { stays: false, sort_key: null },
        { stays: false, sort_key: '7000' },
      );
      const request = { projectId: 'p1', parentId: 'b1', afterId: 'r1' };
      await expect(keyAt(connection, 'row', request)).resolves.toBe('7000');
      expect(connection.rounds).toEqual([
        ['sibling-order.row-slot-after'],
        ['sibling-order.row-renumber', 'sibling-order.row-slot-after'],
      ]);
    });

    it('throws when there is still no room after renumbering', async () => {
      const connection = answering(
        { stays: false, sort_key: null },
        { stays: false, sort_key: null },
      );
      await expect(keyAt(connection, 'content', { ...REQUEST, position: 1 })).rejects.toThrow(
        'content: no room in the list after renumbering',
      );
      expect(
        connection.sent.filter(({ statement }) => statement.name.endsWith('-renumber')),
      ).toHaveLength(1);
    });
  });

  describe('placed', () => {
    /** Runs placed with a `then` that sends PLACED_WRITE with its key; records `then`'s calls. */
    function place(
      connection: ReturnType<typeof answering>,
      where: Parameters<typeof order.placed>[2],
    ) {
      let first: Round | undefined;
      const then = jest.fn((sortKey: string | null, round: Round): Step<string | null> => {
        round.rows(PLACED_WRITE, { sortKey });
        return round.finish(() => sortKey);
      });
      const answer = connection.run((round) => {
        first = round;
        return order.placed(round, 'content', where, then);
      });
      return { answer, then, first: () => first };
    }

    it('without a position or a sibling runs `then` at once with null, in the same round, asking nothing', async () => {
      const connection = answering();
      const { answer, then, first } = place(connection, {
        projectId: 'p1',
        parentId: 'c1',
        selfId: 'ct1',
      });
      expect(then).toHaveBeenCalledWith(null, first());
      await expect(answer).resolves.toBeNull();
      expect(connection.rounds).toEqual([['sibling-order-spec.write']]);
    });

    it('with a position asks its slot (the node as selfId) and runs `then` with the key in the round after', async () => {
      const connection = answering({ stays: false, sort_key: '1500' });
      const { answer, then, first } = place(connection, { ...REQUEST, position: 3 });
      expect(then).not.toHaveBeenCalled();
      await expect(answer).resolves.toBe('1500');
      expect(then).toHaveBeenCalledTimes(1);
      expect(then.mock.calls[0][1]).not.toBe(first());
      expect(connection.rounds).toEqual([
        ['sibling-order.content-slot'],
        ['sibling-order-spec.write'],
      ]);
      expect(connection.sent[0].params).toEqual({ ...REQUEST, position: 3 });
      expect(connection.sent[1].params).toEqual({ sortKey: '1500' });
    });

    it('asks with selfId null for a node that has none (a new one)', async () => {
      const connection = answering({ stays: false, sort_key: '1500' });
      await place(connection, { projectId: 'p1', parentId: 'c1', position: 0 }).answer;
      expect(connection.sent[0].params).toEqual({
        projectId: 'p1',
        parentId: 'c1',
        position: 0,
        selfId: null,
      });
    });

    it('without a position, right after a sibling: asks the slot after it', async () => {
      const connection = answering({ stays: false, sort_key: '2500' });
      const { answer } = place(connection, { projectId: 'p1', parentId: 'c1', afterId: 'ct1' });
      await expect(answer).resolves.toBe('2500');
      expect(connection.rounds[0]).toEqual(['sibling-order.content-slot-after']);
      expect(connection.sent[0].params).toEqual({
        projectId: 'p1',
        parentId: 'c1',
        afterId: 'ct1',
      });
    });

    it('a position wins over a sibling to go after', async () => {
      const connection = answering({ stays: false, sort_key: '1500' });
      await place(connection, { projectId: 'p1', parentId: 'c1', position: 1, afterId: 'ct1' })
        .answer;
      expect(connection.rounds[0]).toEqual(['sibling-order.content-slot']);
      expect(connection.sent[0].params).toEqual({
        projectId: 'p1',
        parentId: 'c1',
        position: 1,
        selfId: null,
      });
    });

    it('runs `then` with null when the node is where the position puts it already', async () => {
      const connection = answering({ stays: true, sort_key: '1500' });
      await expect(place(connection, { ...REQUEST, position: 1 }).answer).resolves.toBeNull();
      expect(connection.sent[1].params).toEqual({ sortKey: null });
    });
  });
});
