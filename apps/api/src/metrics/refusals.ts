import { PROBLEM_TYPES, type ProblemKind } from '@layout/contracts';

/** Why a request that could have been served was not: a budget, a share, a limit. */
export type RefusalKind = 'rate_limit' | 'admission' | 'limit';

/**
 * The problems that are refusals, and of which kind. The rest are not: the client's request was
 * wrong, or the service could not serve it (database unavailable, shutting down), which the
 * request durations' status codes show.
 */
const REFUSALS: Partial<Readonly<Record<ProblemKind, RefusalKind>>> = {
  rateLimited: 'rate_limit',
  tooManyConcurrentRequests: 'admission',
  limitExceeded: 'limit',
  rowWidthExceeded: 'limit',
  payloadTooLarge: 'limit',
  tooManyStreams: 'limit',
};

/** A refusal's labels: its kind, and its problem type as the answer and the access log name it. */
export interface RefusalLabels {
  readonly kind: RefusalKind;
  readonly problem_type: string;
}

const BY_TYPE = new Map<string, RefusalLabels>(
  (Object.entries(REFUSALS) as [ProblemKind, RefusalKind][]).map(([problem, kind]) => [
    PROBLEM_TYPES[problem],
    { kind, problem_type: PROBLEM_TYPES[problem] },
  ]),
);

/** The refusal a problem type is, if it is one. */
export function refusalOf(problemType: string): RefusalLabels | undefined {
  return BY_TYPE.get(problemType);
}

/** Every refusal's labels: their series exist from the start, at zero until one happens. */
export function everyRefusal(): RefusalLabels[] {
  return [...BY_TYPE.values()];
}
