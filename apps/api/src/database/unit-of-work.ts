import { type SqlStatement } from './sql-statement';

/**
 * The shape of every unit of work that runs in a transaction (Database.transaction), which is
 * what lets a group of them be pipelined, speculated past and replayed (GroupTransaction):
 *
 * - A work is a function that, called with a Round, sends that round's statements and returns
 *   a Step at once. It cannot await: it returns a Step, not a promise, and the statements'
 *   answers are Pending values, which are not promises either. So every statement of a round
 *   leaves before any answer is waited for.
 * - The answers are read in the Step's continuation, which runs once every statement of the
 *   round has answered: `round.finish(() => answer)` ends the unit there; `round.next(next =>
 *   ...)` declares that the unit reads, then writes: it sends another round once this one has
 *   answered. Nothing is speculated behind a unit whose first Step is `next`.
 * - A Pending read before its round has answered, or a statement sent on a Round whose turn is
 *   over, throws at once: the unsafe forms fail every time they run, not only when a race
 *   goes badly.
 * - A work may run more than once (a start behind one that failed is discarded and run again):
 *   all it can do is send statements and work out its answer from theirs, and a discarded start
 *   sends nothing more and runs no continuation.
 */
export type Work<T> = (round: Round) => Step<T>;

/** What a Step's continuation returns: a value, never a promise (which could await anything). */
export type Answer<T> = T extends PromiseLike<unknown> ? never : T;

/** The statements of one round trip of a unit of work. */
export interface Round {
  /** Sends `statement` now, behind what was sent before it; its rows come in the continuation. */
  rows<P extends object, R>(statement: SqlStatement<P, R>, params: P): Pending<R[]>;
  /** As `rows`, the first row (undefined when there is none). */
  row<P extends object, R>(statement: SqlStatement<P, R>, params: P): Pending<R | undefined>;
  /** Ends the unit once this round has answered: `answer` works out its result from the rows. */
  finish<T>(answer: () => Answer<T>): Step<T>;
  /** Once this round has answered, `next` sends the unit's next round: a read, then a write. */
  next<T>(next: (round: Round) => Step<T>): Step<T>;
}

/**
 * A round whose following rounds are of its own kind `R` (a Round, or one that holds a lock):
 * what a piece of work that runs inside other works takes, so that it hands its own work the
 * kind of round it was given.
 */
export interface RoundOf<R> extends Pick<Round, 'rows' | 'row' | 'finish'> {
  next<T>(next: (round: R) => Step<T>): Step<T>;
}

/** What sends a statement in a round: enough for a statement that is not a write of the tree. */
export type Statements = Pick<Round, 'rows' | 'row'>;

/** Sends one statement of a unit on the transaction's connection. */
export type SendStatement = <P extends object, R>(
  statement: SqlStatement<P, R>,
  params: P,
) => Promise<R[]>;

type Slot<T> =
  { state: 'waiting' } | { state: 'value'; value: T } | { state: 'error'; error: unknown };

/** Thrown by a read of a Pending whose round has not answered yet: a defect of the caller. */
export class UnsettledRead extends Error {
  constructor() {
    super(
      "A statement's rows were read before its round answered: read them in the Step's continuation (round.finish or round.next)",
    );
  }
}

/** Thrown by a statement sent on a Round whose turn is over. */
export class RoundOver extends Error {
  constructor() {
    super(
      "A statement was sent after its round's turn: send it in the round that round.next gives",
    );
  }
}

/**
 * What a statement will answer, readable in the continuation of its round. Not a promise: it
 * cannot be awaited, only mapped and read.
 */
export class Pending<T> {
  private slot: Slot<T> = { state: 'waiting' };

  private constructor(private readonly derive?: () => T) {}

  /** The value; throws the statement's error, or UnsettledRead before its round has answered. */
  get(): T {
    if (this.derive !== undefined && this.slot.state === 'waiting') {
      this.slot = { state: 'value', value: this.derive() };
    }
    switch (this.slot.state) {
      case 'value':
        return this.slot.value;
      case 'error':
        throw this.slot.error;
      case 'waiting':
        throw new UnsettledRead();
    }
  }

  /** A Pending of `map` applied to this one's value, worked out when it is read. */
  map<U>(map: (value: T) => U): Pending<U> {
    return new Pending<U>(() => map(this.get()));
  }

  /** A Pending that is already known: what a repository answers without asking the database. */
  static of<T>(value: T): Pending<T> {
    const known = new Pending<T>();
    known.slot = { state: 'value', value };
    return known;
  }

  /** @internal A Pending that `settle` fills in. */
  static waiting<T>(): Pending<T> {
    return new Pending<T>();
  }

  /** @internal */
  settle(outcome: PromiseSettledResult<T>): void {
    this.slot =
      outcome.status === 'fulfilled'
        ? { state: 'value', value: outcome.value }
        : { state: 'error', error: outcome.reason };
  }
}

type StepKind<T> =
  | { readonly kind: 'finish'; readonly answer: () => T }
  | { readonly kind: 'next'; readonly next: (round: Round) => Step<T> };

/** What a unit of work does once a round has answered: finish with an answer, or send more. */
export class Step<T> {
  private constructor(
    /** @internal */
    readonly shape: StepKind<T>,
  ) {}

  /** @internal Rounds make Steps; nothing else can. */
  static make<T>(shape: StepKind<T>): Step<T> {
    return new Step(shape);
  }

  /** Whether another round follows this one. */
  get sendsMore(): boolean {
    return this.shape.kind === 'next';
  }

  /**
   * This unit, then `more` with its answer in a round of its own: two units of work as one
   * (a sort key worked out, then the write that takes it).
   */
  andThen<U>(more: (value: T, round: Round) => Step<U>): Step<U> {
    const { shape } = this;
    if (shape.kind === 'finish') {
      return Step.make({ kind: 'next', next: (round) => more(shape.answer(), round) });
    }
    return Step.make({ kind: 'next', next: (round) => shape.next(round).andThen(more) });
  }

  /** The same Step, with `check` run before its continuation (before any answer is read). */
  checkedFirst(check: () => void): Step<T> {
    const { shape } = this;
    if (shape.kind === 'finish') {
      return Step.make({
        kind: 'finish',
        answer: () => {
          check();
          return shape.answer();
        },
      });
    }
    return Step.make({
      kind: 'next',
      next: (round) => {
        check();
        return shape.next(round);
      },
    });
  }
}

/**
 * The same Step, with what its continuation answers (or throws) passed through `answer` (or
 * `failure`): a work's answer worked into another's, or its refusal told apart from others'.
 */
export function mapStep<T, U>(
  step: Step<T>,
  answer: (value: T) => U,
  failure: (error: unknown) => unknown = (error) => error,
): Step<U> {
  const { shape } = step;
  const guarded = <V>(run: () => V): V => {
    try {
      return run();
    } catch (error) {
      throw failure(error);
    }
  };
  if (shape.kind === 'finish') {
    return Step.make({ kind: 'finish', answer: () => answer(guarded(shape.answer)) });
  }
  return Step.make({
    kind: 'next',
    next: (round) =>
      mapStep(
        guarded(() => shape.next(round)),
        answer,
        failure,
      ),
  });
}

/**
 * Runs `works` one after another, as if each were the unit alone at its turn, in as few rounds
 * as their order allows: a work that ends in a round lets the next one send its first
 * statements in that same round, right behind its own (PostgreSQL runs them in the order they
 * were sent, so each still sees the ones before it). Their rules run in the same order, each
 * once its round has answered; the answers come back in order.
 */
export function inSequence<R extends RoundOf<R>, T>(
  round: R,
  works: readonly ((round: R) => Step<T>)[],
): Step<T[]> {
  return sequenceFrom(round, works, 0, [], undefined);
}

function sequenceFrom<R extends RoundOf<R>, T>(
  round: R,
  works: readonly ((round: R) => Step<T>)[],
  first: number,
  answered: readonly T[],
  inProgress: ((round: R) => Step<T>) | undefined,
): Step<T[]> {
  // The works that end in this round, in order, and the one (if any) that sends more.
  const ending: (() => T)[] = [];
  let more: ((round: R) => Step<T>) | undefined;
  let next = first;
  const take = ({ shape }: Step<T>) => {
    if (shape.kind === 'finish') ending.push(shape.answer);
    else more = shape.next;
  };
  if (inProgress !== undefined) take(inProgress(round));
  while (more === undefined && next < works.length) take(works[next++](round));
  const answers = () => [...answered, ...ending.map((answer) => answer())];
  const following = more;
  if (following === undefined) return round.finish(answers);
  return round.next((nextRound) => sequenceFrom(nextRound, works, next, answers(), following));
}

/** One round of one start of a unit: sends while its turn lasts, then waits for its answers. */
class OpenRound implements Round {
  private readonly sent: { pending: Pending<unknown[]>; answer: Promise<unknown[]> }[] = [];
  private turnOver = false;

  constructor(private readonly send: SendStatement) {}

  rows<P extends object, R>(statement: SqlStatement<P, R>, params: P): Pending<R[]> {
    if (this.turnOver) throw new RoundOver();
    const pending = Pending.waiting<R[]>();
    const answer = this.send(statement, params);
    // Answered or not, its outcome is read through the Pending, never left unhandled.
    answer.catch(() => undefined);
    this.sent.push({ pending, answer });
    return pending;
  }

  row<P extends object, R>(statement: SqlStatement<P, R>, params: P): Pending<R | undefined> {
    return this.rows(statement, params).map((rows) => rows[0]);
  }

  finish<T>(answer: () => Answer<T>): Step<T> {
    return Step.make<T>({ kind: 'finish', answer });
  }

  next<T>(next: (round: Round) => Step<T>): Step<T> {
    return Step.make({ kind: 'next', next });
  }

  endTurn(): void {
    this.turnOver = true;
  }

  /** Waits for every answer of the round; throws the first failure, in the order sent. */
  async answered(): Promise<void> {
    const outcomes = await Promise.allSettled(this.sent.map((s) => s.answer));
    outcomes.forEach((outcome, i) => this.sent[i].pending.settle(outcome));
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
  }
}

/** A unit of work whose first round has been sent. */
export interface StartedWork<T> {
  /** Whether it sends more after its first round (declared with `round.next`). */
  readonly sendsMore: boolean;
  /** Its answer, or the first failure of a statement or of a continuation. */
  readonly answer: Promise<T>;
}

/**
 * Runs `work`: its first round is sent before this returns; the rest follows as its rounds
 * answer. `stopped` is asked before every continuation: a start that was discarded meanwhile
 * ends there, with `stopped`'s error.
 */
export function startWork<T>(
  work: Work<T>,
  send: SendStatement,
  stopped: () => Error | undefined,
): StartedWork<T> {
  let round = new OpenRound(send);
  let step = stepOf(work, round);
  const sendsMore = step.sendsMore;
  const answer = (async () => {
    for (;;) {
      await round.answered();
      const stop = stopped();
      if (stop) throw stop;
      const { shape } = step;
      if (shape.kind === 'finish') return shape.answer();
      round = new OpenRound(send);
      step = stepOf(shape.next, round);
    }
  })();
  return { sendsMore, answer };
}

/**
 * The Step a work (or a continuation) returns for `round`, whose turn then ends. One that
 * throws at once fails once what it sent has answered (a failed statement goes first); one
 * that returns anything but a Step (a promise: an async work) fails in the same way, as the
 * defect it is.
 */
function stepOf<T>(work: Work<T>, round: OpenRound): Step<T> {
  try {
    const step = work(round);
    assertStep(step);
    return step;
  } catch (error) {
    return round.finish<T>(() => {
      throw error;
    });
  } finally {
    round.endTurn();
  }
}

function assertStep(step: unknown): asserts step is Step<unknown> {
  if (!(step instanceof Step)) {
    throw new TypeError(
      'A unit of work returns the Step of its round (round.finish or round.next), at once: not a promise',
    );
  }
}
