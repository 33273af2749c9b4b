import {
  QUOTE_FIELD_ID_MAX_LENGTH,
  QUOTE_ITEM_ID_MAX_LENGTH,
  QUOTE_ITEM_TEXT_MAX_LENGTH,
  QUOTE_ITEMS_MAX,
} from '../limits';
import { FieldError, UNKNOWN_MEMBER_DETAIL } from './field-error';
import { isStringOfLength, stringLengthDetail } from './is-string-of-length';
import { appendPointer } from './json-pointer';
import { isPlainObject } from './plain-object';
import { isReservedKey } from './reserved-keys';
import { REQUIRED_DETAIL } from './rule';

/** Members whose value, where present, is an amount rather than free text. */
export const QUOTE_AMOUNT_KEYS: ReadonlySet<string> = new Set(['quantity', 'price']);

/** Past this many, further problems are summed up in one entry instead of listed. */
export const QUOTE_ITEM_PROBLEMS_MAX = 50;

export const QUOTE_ITEMS_DETAIL = `must be an array of at most ${QUOTE_ITEMS_MAX} objects`;

/** One problem inside a list of quote items; `index` and `key` locate it. */
export interface QuoteItemProblem {
  index?: number;
  key?: string;
  detail: string;
}

function isItemValue(value: unknown): boolean {
  return (
    (typeof value === 'number' && Number.isFinite(value)) ||
    typeof value === 'boolean' ||
    isStringOfLength(value, 0, QUOTE_ITEM_TEXT_MAX_LENGTH)
  );
}

function memberProblem(
  key: string,
  value: unknown,
  fieldIds: ReadonlySet<string> | undefined,
): string | undefined {
  if (isReservedKey(key)) {
    return UNKNOWN_MEMBER_DETAIL;
  }
  if (key === 'id') {
    return isStringOfLength(value, 1, QUOTE_ITEM_ID_MAX_LENGTH)
      ? undefined
      : stringLengthDetail(value, 1, QUOTE_ITEM_ID_MAX_LENGTH);
  }
  if (fieldIds !== undefined && !fieldIds.has(key)) {
    return 'is not the id of one of the fields';
  }
  if (!isStringOfLength(key, 1, QUOTE_FIELD_ID_MAX_LENGTH)) {
    return `is not a usable key: keys are 1 to ${QUOTE_FIELD_ID_MAX_LENGTH} characters`;
  }
  if (QUOTE_AMOUNT_KEYS.has(key)) {
    return typeof value === 'number' && Number.isFinite(value) && value >= 0
      ? undefined
      : 'must be a number of at least 0';
  }
  return isItemValue(value)
    ? undefined
    : `must be a string of at most ${QUOTE_ITEM_TEXT_MAX_LENGTH} characters, a number or a boolean`;
}

/**
 * Checks quote items, whose members are dynamic: each item is an object with a string `id` and
 * one value per field id (any key when `fieldIds` is undefined, i.e. no fields were given).
 */
export function findQuoteItemProblems(
  items: unknown,
  fieldIds: ReadonlySet<string> | undefined,
): QuoteItemProblem[] {
  if (!Array.isArray(items) || items.length > QUOTE_ITEMS_MAX) {
    return [{ detail: QUOTE_ITEMS_DETAIL }];
  }
  const problems: QuoteItemProblem[] = [];
  items.forEach((item: unknown, index) => {
    if (!isPlainObject(item)) {
      problems.push({ index, detail: 'must be an object' });
      return;
    }
    if (!Object.hasOwn(item, 'id')) {
      problems.push({ index, key: 'id', detail: REQUIRED_DETAIL });
    }
    for (const [key, value] of Object.entries(item)) {
      const detail = memberProblem(key, value, fieldIds);
      if (detail !== undefined) {
        problems.push({ index, key, detail });
      }
    }
  });
  if (problems.length > QUOTE_ITEM_PROBLEMS_MAX) {
    const more = problems.length - QUOTE_ITEM_PROBLEMS_MAX;
    return [
      ...problems.slice(0, QUOTE_ITEM_PROBLEMS_MAX),
      { detail: `has ${more} more problems in its items` },
    ];
  }
  return problems;
}

/** The problem as a field error, its pointer relative to the list. */
export function quoteItemFieldError(problem: QuoteItemProblem): FieldError {
  let pointer = '';
  if (problem.index !== undefined) {
    pointer = appendPointer(pointer, problem.index);
    if (problem.key !== undefined) {
      pointer = appendPointer(pointer, problem.key);
    }
  }
  return { pointer, detail: problem.detail };
}

/** The problem as one sentence naming the item and key, e.g. `item 2: "price" must be ...`. */
export function describeQuoteItemProblem(problem: QuoteItemProblem): string {
  if (problem.index === undefined) {
    return problem.detail;
  }
  const member = problem.key === undefined ? '' : ` ${JSON.stringify(problem.key)}`;
  return `item ${problem.index}${member} ${problem.detail}`;
}
