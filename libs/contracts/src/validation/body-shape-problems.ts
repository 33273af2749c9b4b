import { BODY_DEPTH_MAX } from '../limits';
import { FieldError, UNKNOWN_MEMBER_DETAIL } from './field-error';
import { appendPointer } from './json-pointer';
import { isReservedKey } from './reserved-keys';

export const TOO_DEEP_DETAIL = `is nested more than ${BODY_DEPTH_MAX} levels deep`;

interface Visit {
  value: unknown;
  pointer: string;
  depth: number;
  reservedKey: boolean;
}

/**
 * Problems visible in the raw body before any class is involved: reserved keys anywhere (which
 * class-transformer would drop silently) and nesting deeper than any valid body, which the
 * recursive class-transformer must not be given. Iterative, so that depth cannot overflow the
 * stack here either. Reports in document order.
 */
export function findBodyShapeProblems(body: unknown): FieldError[] {
  const problems: FieldError[] = [];
  const pending: Visit[] = [{ value: body, pointer: '', depth: 0, reservedKey: false }];
  while (pending.length > 0) {
    const visit = pending.pop() as Visit;
    if (visit.reservedKey) {
      problems.push({ pointer: visit.pointer, detail: UNKNOWN_MEMBER_DETAIL });
      continue;
    }
    if (typeof visit.value !== 'object' || visit.value === null) {
      continue;
    }
    if (visit.depth >= BODY_DEPTH_MAX) {
      problems.push({ pointer: visit.pointer, detail: TOO_DEEP_DETAIL });
      continue;
    }
    const isArray = Array.isArray(visit.value);
    const entries = Object.entries(visit.value);
    for (let index = entries.length - 1; index >= 0; index -= 1) {
      const [key, value] = entries[index] as [string, unknown];
      pending.push({
        value,
        pointer: appendPointer(visit.pointer, key),
        depth: visit.depth + 1,
        reservedKey: !isArray && isReservedKey(key),
      });
    }
  }
  return problems;
}

export function isTooDeep(problems: readonly FieldError[]): boolean {
  return problems.some((problem) => problem.detail === TOO_DEEP_DETAIL);
}
