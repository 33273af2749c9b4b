import { type PoolClient } from 'pg';
import { WriteOutcomeUnknownError } from '../common/errors';
import { GroupTransaction } from './group-transaction';
import { sqlStatement } from './sql-statement';
import { TransactionGroup } from './transaction-group';
import { type Round, startWork, UnsettledRead, type Work } from './unit-of-work';

const BUMP = sqlStatement<{ unit: string }, { n: number }>(
  'group-spec.bump',
  'SELECT $unit AS unit',
);

type Query = string | { name: string; values: unknown[] };
type Answer = { rows: unknown[]; command: string };

/**
 * A connection that records what is sent, in order, and answers only when the test says so:
 * `answer()` answers everything sent so far, in order, by `how` (rows, or an error to throw).
 */
function fakeClient() {
  const sent: string[] = [];
  const waiting: { query: string; resolve: (a: Answer) => void; reject: (e: unknown) => void }[] =
    [];
  let how: (query: string) => Answer | Error = (query) => ({
    rows: query.startsWith('group-spec.bump') ? [{ n: 1 }] : [],
    command: query.split(/[ (]/)[0],
  });
  const client = {
    query(query: Query): Promise<Answer> {
      const text = typeof query === 'string' ? query : `${query.name}(${String(query.values[0])})`;
      sent.push(text);
      return new Promise((resolve, reject) => waiting.push({ query: text, resolve, reject }));
    },
  };
  return {
    client: client as unknown as PoolClient,
    sent,
    answering(answerOf: typeof how) {
      how = answerOf;
    },
    /** Answers what waits, until nothing does (answers make the transaction send more). */
    async answerAll() {
      for (;;) {
        await flush();
        const next = waiting.shift();
        if (next === undefined) return;
        const answer = how(next.query);
        if (answer instanceof Error) next.reject(answer);
        else next.resolve(answer);
      }
    },
  };
}

const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A unit that sends one statement and answers its name, counting its starts. */
function unit(name: string, starts: Record<string, number>, rule?: () => void): Work<string> {
  return (round: Round) => {
    starts[name] = (starts[name] ?? 0) + 1;
    round.rows(BUMP, { unit: name });
    return round.finish(() => {
      rule?.();
      return name;
    });
  };
}

/** Joins `works` to a group, runs it in one transaction and settles every unit. */
function runGroup(db: ReturnType<typeof fakeClient>, works: Work<unknown>[]) {
  const group = new TransactionGroup({ maxUnits: 32, joinWithinMs: 60_000 });
  const answers = works.map((work) =>
    group
      .join((send, stopped) => startWork(work, send, stopped))!
      .then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      ),
  );
  const transaction = new GroupTransaction(db.client, group);
  const running = transaction.run().then(
    () => undefined,
    (error: unknown) => error,
  );
  return { transaction, answers, running };
}

/** What Database.runGroup does once the transaction is over: answers each unit. */
function answerUnits(transaction: GroupTransaction) {
  for (const [unit, value] of transaction.stand) unit.resolve(value);
  for (const [unit, error] of transaction.refused) unit.reject(error);
}

describe('GroupTransaction', () => {
  it('speculates: every unit sends its round before any answer came back, each in its savepoint', async () => {
    const db = fakeClient();
    const starts: Record<string, number> = {};
    const { transaction, answers, running } = runGroup(db, [
      unit('a', starts),
      unit('b', starts),
      unit('c', starts),
    ]);
    await flush();
    // Nothing answered yet, and all three are on the wire, pipelined behind one another.
    expect(db.sent).toEqual([
      'BEGIN',
      'group-spec.bump(a)',
      'SAVEPOINT unit_1',
      'group-spec.bump(b)',
      'SAVEPOINT unit_2',
      'group-spec.bump(c)',
    ]);
    await db.answerAll();
    expect(await running).toBeUndefined();
    expect(db.sent.at(-1)).toBe('COMMIT');
    answerUnits(transaction);
    expect(await Promise.all(answers)).toEqual([{ value: 'a' }, { value: 'b' }, { value: 'c' }]);
    expect(starts).toEqual({ a: 1, b: 1, c: 1 });
  });

  it('discards and replays the units behind one that failed, one at a time until one stands', async () => {
    const db = fakeClient();
    const starts: Record<string, number> = {};
    const refusal = new Error('b is refused');
    const { transaction, answers, running } = runGroup(db, [
      unit('a', starts),
      unit('b', starts, () => {
        throw refusal;
      }),
      unit('c', starts),
      unit('d', starts),
    ]);
    await db.answerAll();
    expect(await running).toBeUndefined();
    // b is rolled back to its savepoint, with c and d, which had started behind it; c starts
    // again alone, and d is pipelined behind it once it stands.
    expect(db.sent).toEqual([
      'BEGIN',
      'group-spec.bump(a)',
      'SAVEPOINT unit_1',
      'group-spec.bump(b)',
      'SAVEPOINT unit_2',
      'group-spec.bump(c)',
      'SAVEPOINT unit_3',
      'group-spec.bump(d)',
      'ROLLBACK TO SAVEPOINT unit_1',
      'SAVEPOINT unit_4',
      'group-spec.bump(c)',
      'SAVEPOINT unit_5',
      'group-spec.bump(d)',
      'COMMIT',
    ]);
    expect(starts).toEqual({ a: 1, b: 1, c: 2, d: 2 });
    answerUnits(transaction);
    expect(await Promise.all(answers)).toEqual([
      { value: 'a' },
      { error: refusal },
      { value: 'c' },
      { value: 'd' },
    ]);
  });

  it('after a refusal, starts nothing behind the next unit until it stands (a run of refusals costs one start each)', async () => {
    const db = fakeClient();
    const starts: Record<string, number> = {};
    const refuse = () => {
      throw new Error('full');
    };
    const { running } = runGroup(db, [
      unit('a', starts, refuse),
      unit('b', starts, refuse),
      unit('c', starts, refuse),
    ]);
    await db.answerAll();
    expect(await running).toBeUndefined();
    // b and c started behind a (speculated), then alone, one after the other.
    expect(starts).toEqual({ a: 1, b: 2, c: 2 });
    expect(db.sent.filter((q) => q.startsWith('ROLLBACK'))).toEqual([
      'ROLLBACK',
      'ROLLBACK',
      'ROLLBACK',
    ]);
    // Nothing stood: nothing to commit.
    expect(db.sent).not.toContain('COMMIT');
  });

  it('starts nothing behind a unit that declared a second round until it has settled', async () => {
    const db = fakeClient();
    const starts: Record<string, number> = {};
    const readsThenWrites: Work<string> = (round) => {
      round.rows(BUMP, { unit: 'read' });
      return round.next((next) => {
        next.rows(BUMP, { unit: 'write' });
        return next.finish(() => 'staged');
      });
    };
    const { running } = runGroup(db, [readsThenWrites, unit('after', starts)]);
    await flush();
    expect(db.sent).toEqual(['BEGIN', 'group-spec.bump(read)']);
    await db.answerAll();
    expect(await running).toBeUndefined();
    expect(db.sent).toEqual([
      'BEGIN',
      'group-spec.bump(read)',
      'group-spec.bump(write)',
      'SAVEPOINT unit_1',
      'group-spec.bump(after)',
      'COMMIT',
    ]);
    // Never speculated past, never started twice.
    expect(starts).toEqual({ after: 1 });
  });

  it('fails alone a deliberately unsafe unit (it reads an answer while sending), and commits the others', async () => {
    const db = fakeClient();
    const starts: Record<string, number> = {};
    const unsafe: Work<number> = (round) => {
      const read = round.row(BUMP, { unit: 'unsafe' });
      const n = read.get()?.n ?? 0; // not there yet, whatever the database's speed
      round.rows(BUMP, { unit: `write-${n}` });
      return round.finish(() => n);
    };
    const { transaction, answers, running } = runGroup(db, [
      unit('a', starts),
      unsafe,
      unit('c', starts),
    ]);
    await db.answerAll();
    expect(await running).toBeUndefined();
    answerUnits(transaction);
    const [a, caught, c] = await Promise.all(answers);
    expect(a).toEqual({ value: 'a' });
    expect((caught as { error: unknown }).error).toBeInstanceOf(UnsettledRead);
    expect(c).toEqual({ value: 'c' });
    // It wrote nothing from what it could not know, and was rolled back.
    expect(db.sent.some((q) => q.startsWith('group-spec.bump(write-'))).toBe(false);
    expect(db.sent).toContain('ROLLBACK TO SAVEPOINT unit_1');
  });

  it('says the outcome is unknown when the connection fails on COMMIT, and answers no unit', async () => {
    const db = fakeClient();
    const starts: Record<string, number> = {};
    db.answering((query) =>
      query === 'COMMIT'
        ? Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' })
        : { rows: [{ n: 1 }], command: query.split(/[ (]/)[0] },
    );
    const { transaction, running } = runGroup(db, [unit('a', starts), unit('b', starts)]);
    await db.answerAll();
    expect(await running).toBeInstanceOf(WriteOutcomeUnknownError);
    // Both stood before the COMMIT: both are among those whose outcome the caller must tell.
    expect(transaction.unanswered()).toHaveLength(2);
  });

  it('fails as a whole when COMMIT answers ROLLBACK (the transaction had been aborted)', async () => {
    const db = fakeClient();
    db.answering((query) => ({
      rows: [{ n: 1 }],
      command: query === 'COMMIT' ? 'ROLLBACK' : query.split(/[ (]/)[0],
    }));
    const { running } = runGroup(db, [unit('a', {})]);
    await db.answerAll();
    expect(await running).toEqual(new Error('COMMIT rolled the transaction back'));
  });
});
