import { ValidateBy, ValidationArguments } from 'class-validator';

export type RuleMessage = string | ((args: ValidationArguments) => string);

export const REQUIRED_DETAIL = 'is required';

/**
 * A validation decorator that yields exactly one sentence when it fails, so each invalid member
 * gets one readable message (class-validator's stock decorators would stack "must be a string"
 * on top of "must be shorter than ..."). A missing required member reads "is required".
 */
export function Rule(
  name: string,
  isValid: (value: unknown, args: ValidationArguments) => boolean,
  message: RuleMessage,
): PropertyDecorator {
  return ValidateBy({
    name,
    validator: {
      validate: (value: unknown, args?: ValidationArguments): boolean =>
        args !== undefined && isValid(value, args),
      defaultMessage: (args?: ValidationArguments): string => {
        if (args === undefined || args.value === undefined) {
          return REQUIRED_DETAIL;
        }
        return typeof message === 'string' ? message : message(args);
      },
    },
  });
}
