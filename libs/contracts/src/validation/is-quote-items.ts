import { ValidationArguments } from 'class-validator';
import { recordMemberProblems } from './member-problems';
import { isObjectValue } from './plain-object';
import {
  describeQuoteItemProblem,
  findQuoteItemProblems,
  quoteItemFieldError,
} from './quote-item-problems';
import { Rule } from './rule';

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
  );
}
