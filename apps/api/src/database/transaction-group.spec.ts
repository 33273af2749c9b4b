import { type StartUnit, TransactionGroup } from './transaction-group';
import { startWork } from './unit-of-work';

const work: StartUnit<string> = (send, stopped) =>
  startWork((round) => round.finish(() => 'done'), send, stopped);

describe('TransactionGroup', () => {
  it('hands out the units in the order they joined, and settles each through its own promise', async () => {
    const group = new TransactionGroup({ maxUnits: 5, joinWithinMs: 1000 });
    const first = group.join(work);
    const second = group.join(work);
    const a = group.take();
    const b = group.take();
    expect(group.take()).toBeUndefined();
    a?.resolve(1);
    b?.reject(new Error('two'));
    await expect(first).resolves.toBe(1);
    await expect(second).rejects.toThrow('two');
  });

  it('takes no more units than its limit, counting those already taken', () => {
    const group = new TransactionGroup({ maxUnits: 2, joinWithinMs: 1000 });
    expect(group.join(work)).toBeDefined();
    group.take();
    expect(group.join(work)).toBeDefined();
    expect(group.takesMore()).toBe(false);
    expect(group.join(work)).toBeUndefined();
  });

  it('takes no unit once it is older than its join window', () => {
    jest.useFakeTimers({ now: 0 });
    try {
      const group = new TransactionGroup({ maxUnits: 5, joinWithinMs: 100 });
      expect(group.join(work)).toBeDefined();
      jest.setSystemTime(101);
      expect(group.join(work)).toBeUndefined();
    } finally {
      jest.useRealTimers();
    }
  });

  it('closes only when no unit waits, and takes none after', () => {
    const group = new TransactionGroup({ maxUnits: 5, joinWithinMs: 1000 });
    void group.join(work);
    expect(group.close()).toBe(false);
    group.take();
    expect(group.close()).toBe(true);
    expect(group.join(work)).toBeUndefined();
  });

  it('tells a waiter when a unit joins, at once when one waits already', async () => {
    const group = new TransactionGroup({ maxUnits: 5, joinWithinMs: 1000 });
    let heard = false;
    const waiting = group.untilJoined().then(() => (heard = true));
    await Promise.resolve();
    expect(heard).toBe(false);
    void group.join(work);
    await waiting;
    expect(heard).toBe(true);
    await expect(group.untilJoined()).resolves.toBeUndefined();
  });

  it('fails the units that wait when it is abandoned, and takes none after', async () => {
    const group = new TransactionGroup({ maxUnits: 5, joinWithinMs: 1000 });
    const waiting = group.join(work);
    group.abandon(new Error('no connection'));
    await expect(waiting).rejects.toThrow('no connection');
    expect(group.join(work)).toBeUndefined();
  });
});
