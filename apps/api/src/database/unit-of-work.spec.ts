import { jest } from '@jest/globals';
import { sqlStatement } from './sql-statement';
import {
  inSequence,
  mapStep,
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

describe('inSequence', () => {
  /** What the works did, in order: their sends, continuations and rules. */
  let done: string[];
  beforeEach(() => (done = []));

  /** A work of one round: sends READ(id), then its rule answers the row's n (or throws `refusal`). */
  const oneRound =
    (id: number, refusal?: Error) =>
    (round: Round): Step<number> => {
      done.push(`send ${id}`);
      const read = round.row(READ, { id });
      return round.finish(() => {
        done.push(`rule ${id}`);
        if (refusal) throw refusal;
        return read.get()!.n;
      });
    };
  /** A work that reads READ(id), then writes WRITE(id) in a round of its own, and answers its n. */
  const twoRounds =
    (id: number) =>
    (round: Round): Step<number> => {
      done.push(`send ${id}`);
      round.row(READ, { id });
      return round.next((next) => {
        done.push(`continue ${id}`);
        const written = next.row(WRITE, { id });
        return next.finish(() => {
          done.push(`rule ${id}`);
          return written.get()!.n;
        });
      });
    };

  it('lets a work that finishes in a round start the next one in that round, right behind it', async () => {
    const db = fakeConnection();
    const started = startWork(
      (round) => inSequence(round, [oneRound(1), oneRound(2), oneRound(3)]),
      db.send,
      notStopped,
    );
    expect(started.sendsMore).toBe(false);
    expect(db.sent).toEqual([
      'unit-spec.read({"id":1})',
      'unit-spec.read({"id":2})',
      'unit-spec.read({"id":3})',
    ]);
    expect(done).toEqual(['send 1', 'send 2', 'send 3']);
    await db.answerAll((i) => [{ n: 10 + i }]);
    await expect(started.answer).resolves.toEqual([10, 11, 12]);
    expect(done).toEqual(['send 1', 'send 2', 'send 3', 'rule 1', 'rule 2', 'rule 3']);
  });

  it('ends the round at a work that sends more: the next ones start in the round after, behind its own', async () => {
    const db = fakeConnection();
    const started = startWork(
      (round) => inSequence(round, [oneRound(1), twoRounds(2), oneRound(3), oneRound(4)]),
      db.send,
      notStopped,
    );
    expect(started.sendsMore).toBe(true);
    expect(db.sent).toEqual(['unit-spec.read({"id":1})', 'unit-spec.read({"id":2})']);
    await db.answerAll(() => [{ n: 1 }]);
    expect(db.sent.slice(2)).toEqual([
      'unit-spec.write({"id":2})',
      'unit-spec.read({"id":3})',
      'unit-spec.read({"id":4})',
    ]);
    await db.answerAll((i) => [{ n: 20 + i }]);
    // The answers in the order of the works, whichever round each ended in.
    await expect(started.answer).resolves.toEqual([1, 20, 21, 22]);
    // Each work's rules once its round has answered, in order; the first's before the second
    // goes on.
    expect(done).toEqual([
      'send 1',
      'send 2',
      'rule 1',
      'continue 2',
      'send 3',
      'send 4',
      'rule 2',
      'rule 3',
      'rule 4',
    ]);
  });

  it('takes as many rounds as its works’ next rounds, not one per work', async () => {
    const db = fakeConnection();
    let rounds = 1;
    const started = startWork(
      (round) => inSequence(round, [twoRounds(1), twoRounds(2), oneRound(3)]),
      db.send,
      notStopped,
    );
    for (;;) {
      const sent = db.sent.length;
      await db.answerAll(() => [{ n: 0 }]);
      if (db.sent.length === sent) break;
      rounds += 1;
    }
    await expect(started.answer).resolves.toEqual([0, 0, 0]);
    // read 1 | write 1, read 2 | write 2, read 3.
    expect(rounds).toBe(3);
  });

  it('fails with a later work’s rule once the rules before it passed, and runs none after it', async () => {
    const db = fakeConnection();
    const refusal = new Error('the second work’s rule');
    const started = startWork(
      (round) => inSequence(round, [oneRound(1), oneRound(2, refusal), oneRound(3)]),
      db.send,
      notStopped,
    );
    const outcome = outcomeOf(started.answer);
    await db.answerAll();
    expect(await outcome).toBe(refusal);
    expect(done).toEqual(['send 1', 'send 2', 'send 3', 'rule 1', 'rule 2']);
  });

  it('fails with the first work’s rule before the second one’s continuation runs', async () => {
    const db = fakeConnection();
    const refusal = new Error('the first work’s rule');
    const started = startWork(
      (round) => inSequence(round, [oneRound(1, refusal), twoRounds(2)]),
      db.send,
      notStopped,
    );
    const outcome = outcomeOf(started.answer);
    await db.answerAll();
    expect(await outcome).toBe(refusal);
    expect(done).toEqual(['send 1', 'send 2', 'rule 1']);
    expect(db.sent).toHaveLength(2);
  });

  it('answers an empty list for no works, sending nothing', async () => {
    const db = fakeConnection();
    const started = startWork((round) => inSequence(round, []), db.send, notStopped);
    await expect(started.answer).resolves.toEqual([]);
    expect(db.sent).toEqual([]);
  });
});

describe('mapStep', () => {
  it('passes what the continuation answers through `answer`', async () => {
    const db = fakeConnection();
    const started = startWork(
      (round) => {
        const read = round.row(READ, { id: 1 });
        return mapStep(
          round.finish(() => read.get()!.n),
          (n) => `n=${n}`,
        );
      },
      db.send,
      notStopped,
    );
    await db.answerAll(() => [{ n: 4 }]);
    await expect(started.answer).resolves.toBe('n=4');
  });

  it('passes what the continuation throws through `failure`, and answers nothing', async () => {
    const db = fakeConnection();
    const refusal = new Error('a rule');
    const told = new Error('told apart');
    const failure = jest.fn((_error: unknown) => told);
    const answer = jest.fn((n: number) => n);
    const started = startWork(
      (round) =>
        mapStep(
          round.finish((): number => {
            throw refusal;
          }),
          answer,
          failure,
        ),
      db.send,
      notStopped,
    );
    await expect(started.answer).rejects.toBe(told);
    expect(failure).toHaveBeenCalledWith(refusal);
    expect(answer).not.toHaveBeenCalled();
  });

  it('leaves a failure as it is when told no `failure`', async () => {
    const db = fakeConnection();
    const refusal = new Error('a rule');
    const started = startWork(
      (round) =>
        mapStep(
          round.finish((): number => {
            throw refusal;
          }),
          (n) => n + 1,
        ),
      db.send,
      notStopped,
    );
    await expect(started.answer).rejects.toBe(refusal);
  });

  describe('through several rounds', () => {
    /** A work of three rounds whose last rule answers the last row's n, or whose `failing` round throws. */
    const threeRounds =
      (failing?: { round: 2 | 3; error: Error }) =>
      (round: Round): Step<number> => {
        round.row(READ, { id: 1 });
        return round.next((second) => {
          if (failing?.round === 2) throw failing.error;
          second.row(READ, { id: 2 });
          return second.next((third) => {
            const last = third.row(WRITE, { id: 3 });
            return third.finish(() => {
              if (failing?.round === 3) throw failing.error;
              return last.get()!.n;
            });
          });
        });
      };

    async function run(work: Work<string>) {
      const db = fakeConnection();
      const started = startWork(work, db.send, notStopped);
      const outcome = outcomeOf(started.answer);
      for (let round = 0; round < 3; round += 1) await db.answerAll(() => [{ n: 7 }]);
      return { sendsMore: started.sendsMore, sent: db.sent, outcome: await outcome };
    }

    it('maps the answer of its last round, keeping every round', async () => {
      const { sendsMore, sent, outcome } = await run((round) =>
        mapStep(threeRounds()(round), (n) => `last ${n}`),
      );
      expect(sendsMore).toBe(true);
      expect(sent).toEqual([
        'unit-spec.read({"id":1})',
        'unit-spec.read({"id":2})',
        'unit-spec.write({"id":3})',
      ]);
      expect(outcome).toBe('last 7');
    });

    it.each([2, 3] as const)('maps a failure in round %i', async (failingRound) => {
      const error = new Error(`round ${failingRound}`);
      const { outcome } = await run((round) =>
        mapStep(
          threeRounds({ round: failingRound, error })(round),
          (n) => `last ${n}`,
          (e) => new Error(`mapped: ${(e as Error).message}`),
        ),
      );
      expect(outcome).toEqual(new Error(`mapped: round ${failingRound}`));
    });
  });
});
