import { fakeConnection, lockedRound } from '../../../../../test/support/layout-service-fakes';
import { HistoryRepository } from './history.repository';
import { RESTORE } from './sql/history.sql';

describe('HistoryRepository.restore', () => {
  it('sends its statements in one round, planned for whole levels, and then puts the planner back', async () => {
    const connection = fakeConnection((statement) =>
      statement === RESTORE.project ? [{ json: '{"_id":"p1"}', tree_bytes: '120' }] : [],
    );
    const restored = await connection.run((round) => {
      const pending = new HistoryRepository().restore(lockedRound(round), {
        projectId: 'p1',
        revision: 3,
        kept: 1000,
      });
      return round.finish(() => pending.get());
    });

    expect(restored).toEqual({ json: '{"_id":"p1"}', treeBytes: 120 });
    expect(connection.rounds).toEqual([
      [
        RESTORE.plan.wholeLevels.name,
        ...RESTORE.deletes.map((statement) => statement.name),
        RESTORE.shift.name,
        ...RESTORE.upserts.map((statement) => statement.name),
        ...RESTORE.recounts.map((statement) => statement.name),
        RESTORE.project.name,
        RESTORE.plan.asBefore.name,
      ],
    ]);
  });
});
