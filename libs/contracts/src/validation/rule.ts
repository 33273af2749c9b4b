import { ValidateBy, ValidationArguments } from 'class-validator';
import { recordSchemaHint, SchemaHint } from './schema-hints';

export type RuleMessage = string | ((args: ValidationArguments) => string);

export const REQUIRED_DETAIL = 'is required';

/**
 * A validation decorator that yields exactly one sentence when it fails, so each invalid member
 * gets one readable message (class-validator's stock decorators would stack "must be a string"
 * on top of "must be shorter than ..."). A missing required member reads "is required".
 * `schema` states what the rule accepts as JSON Schema, for documentation (see schema-hints).
 */
export function Rule(
  name: string,
  isValid: (value: unknown, args: ValidationArguments) => boolean,
  message: RuleMessage,
  schema?: SchemaHint,
): PropertyDecorator {
  const validate = ValidateBy({
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
  return (target, member) => {
    validate(target, member);
    if (schema !== undefined) {
      recordSchemaHint(target, member, schema);
    }
  };
}
