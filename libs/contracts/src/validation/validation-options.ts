import type { ClassTransformOptions } from 'class-transformer';
import type { ValidatorOptions } from 'class-validator';
import { NESTED_MEMBER_TARGET_MAPS } from './nested-members';

/** class-validator options of every contract check, on the server and in the browser alike. */
export const CONTRACT_VALIDATION_OPTIONS: Readonly<ValidatorOptions> = Object.freeze({
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  stopAtFirstError: false,
  // The value stays on each error: toFieldErrors needs it to locate problems in quote items.
  // The target (the whole object) does not, and would only leak the body into logs.
  validationError: Object.freeze({ target: false, value: true }),
});

/**
 * class-transformer options. No implicit conversion: `"6"` must not become 6 (nor `true` become
 * 1) except where a member's own transform says so, as the column size does. No defaults and no
 * unset fields either: an absent member stays absent, so that PUT can leave it unchanged. The
 * target maps name the class of each nested member, so that class-transformer builds nested
 * instances in one pass instead of deep-copying each subtree first (see
 * NESTED_MEMBER_TARGET_MAPS); they grow as classes are first built.
 */
export const CONTRACT_TRANSFORM_OPTIONS: Readonly<ClassTransformOptions> = Object.freeze({
  enableImplicitConversion: false,
  exposeDefaultValues: false,
  exposeUnsetFields: false,
  targetMaps: NESTED_MEMBER_TARGET_MAPS,
});
