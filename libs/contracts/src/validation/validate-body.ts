import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { bodyMayBeOmitted } from './body-may-be-omitted';
import { findBodyShapeProblems, isTooDeep } from './body-shape-problems';
import { FieldError, NOT_AN_OBJECT_BODY_DETAIL } from './field-error';
import { dedupeFieldErrors, toFieldErrors } from './field-errors';
import { mapNestedMembers } from './nested-members';
import { isPlainObject } from './plain-object';
import { cacheRuleLookups } from './rule-lookup-cache';
import type { Constructor } from './to-instance';
import { withoutReservedKeys } from './without-reserved-keys';
import { CONTRACT_TRANSFORM_OPTIONS, CONTRACT_VALIDATION_OPTIONS } from './validation-options';

export type BodyValidationResult<T> =
  { ok: true; value: T; errors: [] } | { ok: false; value?: undefined; errors: FieldError[] };

/**
 * Checks a parsed JSON body against a request DTO exactly as the server does and returns the DTO
 * instance or the list of invalid members. Reserved keys and over-deep nesting are caught on the
 * raw body first: class-transformer would drop or choke on the former and overflow on the latter.
 * A server that feeds bodies to class-transformer itself must do the same first. No body at all
 * (`undefined`) is an empty one for the DTOs that say so (BodyMayBeOmitted).
 */
export async function validateBody<T extends object>(
  cls: Constructor<T>,
  body: unknown,
): Promise<BodyValidationResult<T>> {
  cacheRuleLookups();
  // Tells class-transformer the classes of the body's nested members, the first time only.
  mapNestedMembers(cls);
  if (body === undefined && bodyMayBeOmitted(cls)) body = {};
  if (!isPlainObject(body)) {
    return { ok: false, errors: [{ pointer: '', detail: NOT_AN_OBJECT_BODY_DETAIL }] };
  }
  const shapeProblems = findBodyShapeProblems(body);
  if (isTooDeep(shapeProblems)) {
    return { ok: false, errors: shapeProblems };
  }
  // Reserved keys are already reported; the rest of the body is still checked in full.
  const value = plainToInstance(cls, withoutReservedKeys(body), CONTRACT_TRANSFORM_OPTIONS);
  const validationErrors = await validate(value, CONTRACT_VALIDATION_OPTIONS);
  const errors = dedupeFieldErrors([...shapeProblems, ...toFieldErrors(validationErrors)]);
  return errors.length === 0 ? { ok: true, value, errors: [] } : { ok: false, errors };
}
