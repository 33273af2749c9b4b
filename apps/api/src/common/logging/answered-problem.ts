import { type FastifyReply } from 'fastify';

/** What the access log writes of an answer that was a problem: its type, and how loud. */
export interface AnsweredProblem {
  readonly type: string;
  readonly level: 'info' | 'warn' | 'error';
}

const answered = new WeakMap<FastifyReply, AnsweredProblem>();

/** Notes that `reply` answers `problem`; sendProblem calls it for every problem it sends. */
export function noteAnsweredProblem(reply: FastifyReply, problem: AnsweredProblem): void {
  answered.set(reply, problem);
}

/** The problem `reply` answered, if it answered one. */
export function answeredProblemOf(reply: FastifyReply): AnsweredProblem | undefined {
  return answered.get(reply);
}
