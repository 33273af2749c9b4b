import {
  PROBLEM_STATUSES,
  PROBLEM_TITLES,
  PROBLEM_TYPES,
  type ProblemKind,
} from '@layout/contracts';

export type { ProblemKind };

/** Type, title and status of a problem kind, as published by the shared DTO library. */
export function describeProblem(kind: ProblemKind) {
  const type = PROBLEM_TYPES[kind];
  return { type, title: PROBLEM_TITLES[type], status: PROBLEM_STATUSES[type] };
}
