import { cssTokens, isCssLength } from './css-length';
import { CSS_VALUE_MAX_LENGTH } from '../limits';
import { Rule } from './rule';

const HORIZONTAL = new Set(['left', 'right']);
const VERTICAL = new Set(['top', 'bottom']);

function isKeyword(token: string): boolean {
  return token === 'center' || HORIZONTAL.has(token) || VERTICAL.has(token);
}

function isOffset(token: string): boolean {
  return isKeyword(token) || isCssLength(token, { allowNegative: true });
}

/**
 * One or two of `left`, `right`, `top`, `bottom`, `center` or lengths/percentages (offsets may be
 * negative). Two values follow CSS: two keywords must not name the same axis ("left right"), and
 * next to a length the first value is horizontal and the second vertical ("top 10px" is invalid).
 */
export function isBackgroundPosition(value: unknown): boolean {
  const tokens = cssTokens(value);
  if (tokens === null || tokens.length === 0 || tokens.length > 2 || !tokens.every(isOffset)) {
    return false;
  }
  if (tokens.length === 1) {
    return true;
  }
  const [first, second] = tokens as [string, string];
  if (isKeyword(first) && isKeyword(second)) {
    const sameAxis =
      (HORIZONTAL.has(first) && HORIZONTAL.has(second)) ||
      (VERTICAL.has(first) && VERTICAL.has(second));
    return !sameAxis;
  }
  return !VERTICAL.has(first) && !HORIZONTAL.has(second);
}

export function IsBackgroundPosition(): PropertyDecorator {
  return Rule(
    'isBackgroundPosition',
    isBackgroundPosition,
    'must be one or two of left, right, top, bottom, center, or CSS lengths or percentages (e.g. "center top", "10px 50%")',
    { type: 'string', minLength: 1, maxLength: CSS_VALUE_MAX_LENGTH },
  );
}
