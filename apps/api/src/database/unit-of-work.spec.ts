import { sqlStatement } from './sql-statement';
import {
  Pending,
  type Round,
  RoundOver,
  type SendStatement,
  startWork,
  type Step,
  UnsettledRead,
  type Work,
} from './unit-of-work';

const READ = sqlStatement<{ id: number }, { n: number }>('unit-spec.read', 'SELECT $id AS n');
const WRITE = sqlStatement<{ id: number }, { n: number }>('unit-spec.write', 'SELECT $id AS n');

/** A connection that records what is sent and answers each statement once the test says so. */
function fakeConnection() {
  const sent: string[] = [];
  const waiting: { resolve: (rows: unknown[]) => void; reject: (error: unknown) => void }[] = [];
  const send: SendStatement = (statement, params) => {
    sent.push(`${statement.name}(${JSON.stringify(params)})`);
    return new Promise((resolve, reject) => {
      waiting.push({ resolve: resolve as (rows: unknown[]) => void, reject });
    });
  };
  return {
    send,
    sent,
    /** Answers every statement sent so far: each with one row `{ n }` of its params' id. */
    answerAll(rows: (index: number) => unknown[] = (i) => [{ n: i }]) {
      waiting.splice(0).forEach((w, i) => w.resolve(rows(i)));
      return flush();
    },
    failAt(index: number, error: unknown) {
      const all = waiting.splice(0);
      all.forEach((w, i) => (i === index ? w.reject(error) : w.resolve([])));
      return flush();
    },
  };
}

/** Lets every pending promise callback run. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

const notStopped = () => undefined;

/** What `answer` fails with (the value it answers, if it does not), caught as soon as asked. */
const outcomeOf = (answer: Promise<unknown>) =>
  answer.then(
    (value) => value,
    (error: unknown) => error,
  );

describe('startWork', () => {
  it('sends a round before it returns, and runs the continuation once every answer is in', async () => {
    const db = fakeConnection();
    const seen: number[] = [];
    const work: Work<number> = (round) => {
      const a = round.row(READ, { id: 1 });
      const b = round.row(READ, { id: 2 });
      return round.finish(() => {
        seen.push(a.get()!.n, b.get()!.n);
        return seen.length;
      });
    };
    const started = startWork(work, db.send, notStopped);
    expect(db.sent).toEqual(['unit-spec.read({"id":1})', 'unit-spec.read({"id":2})']);
    expect(started.sendsMore).toBe(false);
    expect(seen).toEqual([]);
    await db.answerAll((i) => [{ n: 10 + i }]);
    await expect(started.answer).resolves.toBe(2);
    expect(seen).toEqual([10, 11]);
  });

  it('sends the next round only once the first has answered, and says at once that it will', async () => {
    const db = fakeConnection();
    const work: Work<number> = (round) => {
      const read = round.row(READ, { id: 1 });
      return round.next((next) => {
        const written = next.row(WRITE, { id: read.get()!.n });
        return next.finish(() => written.get()!.n);
      });
    };
    const started = startWork(work, db.send, notStopped);
    expect(started.sendsMore).toBe(true);
    expect(db.sent).toEqual(['unit-spec.read({"id":1})']);
    await db.answerAll(() => [{ n: 7 }]);
    expect(db.sent).toEqual(['unit-spec.read({"id":1})', 'unit-spec.write({"id":7})']);
    await db.answerAll(() => [{ n: 8 }]);
    await expect(started.answer).resolves.toBe(8);
  });

  it('fails with the first failed statement, in the order sent, and runs no continuation', async () => {
    const db = fakeConnection();
    let ran = false;
    const started = startWork(
      (round) => {
        round.rows(READ, { id: 1 });
        round.rows(READ, { id: 2 });
        round.rows(READ, { id: 3 });
        return round.finish(() => (ran = true));
      },
      db.send,
      notStopped,
    );
    const outcome = outcomeOf(started.answer);
    const failure = new Error('the second statement failed');
    await db.failAt(1, failure);
    expect(await outcome).toBe(failure);
    expect(ran).toBe(false);
  });

  it('lets a work that throws at once fail only once what it sent has answered', async () => {
    const db = fakeConnection();
    const rule = new Error('a rule');
    const started = startWork(
      (round) => {
        round.rows(READ, { id: 1 });
        throw rule;
      },
      db.send,
      notStopped,
    );
    let settled = false;
    started.answer.catch(() => (settled = true));
    await flush();
    expect(settled).toBe(false);
    await db.answerAll();
    await expect(started.answer).rejects.toBe(rule);
  });

  it('ends a start that was discarded before its continuation, with the reason it is given', async () => {
    const db = fakeConnection();
    const discarded: { reason?: Error } = {};
    let ran = false;
    const started = startWork(
      (round) => {
        round.rows(READ, { id: 1 });
        return round.finish(() => (ran = true));
      },
      db.send,
      () => discarded.reason,
    );
    const outcome = outcomeOf(started.answer);
    discarded.reason = new Error('discarded');
    await db.answerAll();
    expect(await outcome).toBe(discarded.reason);
    expect(ran).toBe(false);
  });

  describe('catches the unsafe forms every time they run', () => {
    it('an answer read while still sending: UnsettledRead', async () => {
      const db = fakeConnection();
      const started = startWork(
        (round) => {
          const read = round.row(READ, { id: 1 });
          // Deciding what to write from an answer that cannot be there yet.
          const n = read.get()?.n ?? 0;
          round.rows(WRITE, { id: n });
          return round.finish(() => n);
        },
        db.send,
        notStopped,
      );
      const outcome = outcomeOf(started.answer);
      await db.answerAll();
      expect(await outcome).toBeInstanceOf(UnsettledRead);
      // Nothing was written from it.
      expect(db.sent).toEqual(['unit-spec.read({"id":1})']);
    });

    it('a statement sent after its round, on a round kept aside: RoundOver', async () => {
      const db = fakeConnection();
      let kept: Round | undefined;
      const started = startWork(
        (round) => {
          kept = round;
          return round.finish(() => 'done');
        },
        db.send,
        notStopped,
      );
      await expect(started.answer).resolves.toBe('done');
      expect(() => kept!.rows(WRITE, { id: 1 })).toThrow(RoundOver);
      expect(db.sent).toEqual([]);
    });

    it('a statement sent from a continuation that declared no more rounds: RoundOver', async () => {
      const db = fakeConnection();
      const started = startWork(
        (round) => {
          const read = round.row(READ, { id: 1 });
          return round.finish(() => {
            round.rows(WRITE, { id: read.get()!.n });
            return 'written?';
          });
        },
        db.send,
        notStopped,
      );
      const outcome = outcomeOf(started.answer);
      await db.answerAll();
      expect(await outcome).toBeInstanceOf(RoundOver);
      expect(db.sent).toEqual(['unit-spec.read({"id":1})']);
    });

    it('an async work or continuation does not compile, and an async work fails when forced', async () => {
      const db = fakeConnection();
      // @ts-expect-error A work returns its Step at once, not a promise of one.
      // eslint-disable-next-line @typescript-eslint/require-await -- the defect under test
      const asyncWork: Work<number> = async (round: Round) => round.finish(() => 1);
      const started = startWork(asyncWork, db.send, notStopped);
      await expect(started.answer).rejects.toThrow(/not a promise/);

      const awaitsInContinuation = (round: Round): Step<number> =>
        // @ts-expect-error A continuation answers a value, not a promise that could await anything.
        // eslint-disable-next-line @typescript-eslint/require-await -- the defect under test
        round.finish(async () => 1);
      expect(awaitsInContinuation).toBeDefined();
    });

    it('a Pending is no promise: awaiting one waits for nothing (and the linter refuses it)', () => {
      // `await pending` is refused by @typescript-eslint/await-thenable; at run time it would
      // give the Pending itself, never the rows.
      const pending = Pending.of([{ n: 1 }]);
      expect('then' in pending).toBe(false);
      expect(pending.get()).toEqual([{ n: 1 }]);
    });
  });

  describe('Step', () => {
    it('andThen runs the second unit in a round after the first one answered, with its answer', async () => {
      const db = fakeConnection();
      const first = (round: Round) => {
        const read = round.row(READ, { id: 1 });
        return round.finish(() => read.get()!.n);
      };
      const started = startWork(
        (round) =>
          first(round).andThen((n, next) => {
            const written = next.row(WRITE, { id: n + 1 });
            return next.finish(() => written.get()!.n);
          }),
        db.send,
        notStopped,
      );
      expect(started.sendsMore).toBe(true);
      await db.answerAll(() => [{ n: 41 }]);
      expect(db.sent.at(-1)).toBe('unit-spec.write({"id":42})');
      await db.answerAll(() => [{ n: 42 }]);
      await expect(started.answer).resolves.toBe(42);
    });

    it('checkedFirst runs its check before the continuation, whose rules it can overrule', async () => {
      const db = fakeConnection();
      const order: string[] = [];
      const refusal = new Error('no such project');
      const started = startWork(
        (round) =>
          round
            .finish(() => {
              order.push('continuation');
              throw new Error('a rule of the work');
            })
            .checkedFirst(() => {
              order.push('check');
              throw refusal;
            }),
        db.send,
        notStopped,
      );
      await expect(started.answer).rejects.toBe(refusal);
      expect(order).toEqual(['check']);
    });

    it('map is worked out when read, from the answer', async () => {
      const db = fakeConnection();
      const started = startWork(
        (round) => {
          const doubled = round.row(READ, { id: 1 }).map((row) => (row?.n ?? 0) * 2);
          expect(() => doubled.get()).toThrow(UnsettledRead);
          return round.finish(() => doubled.get());
        },
        db.send,
        notStopped,
      );
      await db.answerAll(() => [{ n: 21 }]);
      await expect(started.answer).resolves.toBe(42);
    });
  });
});
