import { CSS_VALUE_MAX_LENGTH } from '../limits';
import { isCssLength } from './css-length';
import { Rule } from './rule';

/** A number of pixels (finite, ≥ 0), `auto`, or a non-negative CSS length/percentage. */
export function isImageDimension(value: unknown): boolean {
  if (typeof value === 'number') {
    return Number.isFinite(value) && value >= 0;
  }
  if (typeof value !== 'string' || value.length > CSS_VALUE_MAX_LENGTH) {
    return false;
  }
  return value.toLowerCase() === 'auto' || isCssLength(value, { allowNegative: false });
}

export function IsImageDimension(): PropertyDecorator {
  return Rule(
    'isImageDimension',
    isImageDimension,
    'must be a number of pixels (0 or more), "auto", or a CSS length or percentage such as "600px" or "50%"',
    {
      oneOf: [
        { type: 'number', minimum: 0 },
        { type: 'string', minLength: 1, maxLength: CSS_VALUE_MAX_LENGTH },
      ],
    },
  );
}
