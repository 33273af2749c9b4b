import type { ValidationError } from 'class-validator';
import { FieldError, UNKNOWN_MEMBER_DETAIL } from './field-error';
import { appendPointer } from './json-pointer';
import { memberProblemsOf } from './member-problems';
import { OBJECT_DETAIL } from './nested-object';

export type { FieldError } from './field-error';

// Constraint names of class-validator's own checks, whose stock messages would name internals.
const WHITELIST_CONSTRAINT = 'whitelistValidation';
const UNKNOWN_VALUE_CONSTRAINT = 'unknownValue';

function detailsOf(constraints: Record<string, string>): string[] {
  const details = Object.entries(constraints).map(([name, message]) => {
    if (name === WHITELIST_CONSTRAINT) {
      return UNKNOWN_MEMBER_DETAIL;
    }
    return name === UNKNOWN_VALUE_CONSTRAINT ? OBJECT_DETAIL : message;
  });
  return [...new Set(details)];
}

function collect(errors: readonly ValidationError[], base: string, out: FieldError[]): void {
  for (const error of errors) {
    // An error without a property is about the object itself (forbidUnknownValues).
    const pointer =
      error.property === undefined || error.property === null
        ? base
        : appendPointer(base, error.property);
    const constraints = error.constraints ?? {};
    if (Object.keys(constraints).length > 0) {
      const located = memberProblemsOf(error.value);
      if (located !== undefined && located.length > 0) {
        located.forEach((problem) =>
          out.push({ pointer: pointer + problem.pointer, detail: problem.detail }),
        );
      } else {
        out.push({ pointer, detail: detailsOf(constraints).join('; ') });
      }
      // The value is wrong as a whole; what class-validator found inside it adds only noise.
      continue;
    }
    collect(error.children ?? [], pointer, out);
  }
}

/**
 * Flattens class-validator's tree of errors into one entry per invalid member, addressed by an
 * RFC 6901 JSON pointer (`/contents/2/style/opacity`), in the order class-validator reports them.
 * A member with several failed rules gets one entry, its distinct messages joined by "; ".
 */
export function toFieldErrors(errors: readonly ValidationError[], basePointer = ''): FieldError[] {
  const out: FieldError[] = [];
  collect(errors, basePointer, out);
  return dedupeFieldErrors(out);
}

export function dedupeFieldErrors(errors: readonly FieldError[]): FieldError[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    const key = `${error.pointer}\u0000${error.detail}`;
    if (seen.has(key)) {
      return false;
    }
    seen.add(key);
    return true;
  });
}
