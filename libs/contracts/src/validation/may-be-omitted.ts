import { ValidateIf } from 'class-validator';

/**
 * Skips the member's rules only when it is absent. class-validator's IsOptional also skips `null`,
 * which the contract rejects (e.g. `"size": null` is a 400, even on update).
 */
export function MayBeOmitted(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}
