import { ValidationArguments } from 'class-validator';
import { QUOTE_ITEM_ID_MAX_LENGTH, QUOTE_ITEM_TEXT_MAX_LENGTH, QUOTE_ITEMS_MAX } from '../limits';
import { recordMemberProblems } from './member-problems';
import { isObjectValue } from './plain-object';
import {
  describeQuoteItemProblem,
  findQuoteItemProblems,
  QUOTE_AMOUNT_KEYS,
  quoteItemFieldError,
} from './quote-item-problems';
import { Rule } from './rule';
import type { SchemaHint } from './schema-hints';

/**
 * A list of items with an `id` and one value per field id. JSON Schema cannot tie the keys to the
 * sibling `fields` (nor limit their length in OpenAPI 3.0); the rule does.
 */
export const QUOTE_ITEMS_SCHEMA: SchemaHint = {
  type: 'array',
  maxItems: QUOTE_ITEMS_MAX,
  items: {
    type: 'object',
    required: ['id'],
    properties: {
      id: { type: 'string', minLength: 1, maxLength: QUOTE_ITEM_ID_MAX_LENGTH },
      ...Object.fromEntries(
        [...QUOTE_AMOUNT_KEYS].map((key): [string, SchemaHint] => [
          key,
          { type: 'number', minimum: 0 },
        ]),
      ),
    },
    additionalProperties: {
      oneOf: [
        { type: 'string', maxLength: QUOTE_ITEM_TEXT_MAX_LENGTH },
        { type: 'number' },
        { type: 'boolean' },
      ],
    },
  },
};

/**
 * The ids of the sibling `fields`, or undefined when there are none to hold the items to (no
 * list, or a list that is itself invalid and reported on its own).
 */
function siblingFieldIds(args: ValidationArguments): ReadonlySet<string> | undefined {
  const fields = (args.object as { fields?: unknown }).fields;
  if (!Array.isArray(fields) || !fields.every(isObjectValue)) {
    return undefined;
  }
  const ids = fields.map((field) => (field as { id?: unknown }).id);
  return new Set(ids.filter((id): id is string => typeof id === 'string'));
}

/**
 * Quote items have dynamic keys, which class-validator's whitelist cannot express; this rule
 * checks them all and records a pointer for each problem (see member-problems).
 */
export function IsQuoteItems(): PropertyDecorator {
  return Rule(
    'isQuoteItems',
    (value, args) => {
      const problems = findQuoteItemProblems(value, siblingFieldIds(args));
      recordMemberProblems(value, problems.map(quoteItemFieldError));
      return problems.length === 0;
    },
    (args) =>
      findQuoteItemProblems(args.value, siblingFieldIds(args))
        .map(describeQuoteItemProblem)
        .join('; '),
    QUOTE_ITEMS_SCHEMA,
  );
}
