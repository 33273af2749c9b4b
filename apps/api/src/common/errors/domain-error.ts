import { type ProblemKind } from '@layout/contracts';

/**
 * The problem a domain error is answered with: its kind (the contract's problem type, which
 * says the status), what this occurrence adds to the standard members, and the headers it
 * needs. Its `detail` is the error's message.
 */
export interface OwnProblem {
  readonly kind: ProblemKind;
  readonly extensions?: Readonly<Record<string, unknown>>;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * The problem of another refusal, whatever it is, with members that say where it happened (a
 * batch's operation, a tree's node): for an error that refuses one part of a request on behalf
 * of what refused it.
 */
export interface RefusalOfPart {
  readonly refusal: unknown;
  readonly extensions: Readonly<Record<string, unknown>>;
}

export type ErrorProblem = OwnProblem | RefusalOfPart;

/**
 * Base of every error a service throws on purpose. Services know nothing of HTTP: each error
 * names its problem, and the single exception filter turns that into status, headers and body.
 */
export abstract class DomainError extends Error {
  protected constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }

  abstract problem(): ErrorProblem;
}
