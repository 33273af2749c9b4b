import { Rule } from './rule';

/**
 * An id in a body that names a parent to look up (a move's or a copy's `columnId`, say). Ids
 * are opaque: any string is one, and one of the wrong shape (too long, unusual characters)
 * names nothing, which the service answers with 404 as it would in a path. Only a value that
 * is not a string at all makes the body malformed.
 */
export function IsIdString(): PropertyDecorator {
  return Rule(
    'isIdString',
    (value) => typeof value === 'string',
    'must be a string: the id of a resource',
    { type: 'string' },
  );
}
