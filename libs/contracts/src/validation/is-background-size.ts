import { cssTokens, isCssLength } from './css-length';
import { CSS_VALUE_MAX_LENGTH } from '../limits';
import { Rule } from './rule';

/** `auto`, `cover`, `contain`, or one or two of `auto` and non-negative lengths/percentages. */
export function isBackgroundSize(value: unknown): boolean {
  const tokens = cssTokens(value);
  if (tokens === null || tokens.length === 0 || tokens.length > 2) {
    return false;
  }
  if (tokens.length === 1 && (tokens[0] === 'cover' || tokens[0] === 'contain')) {
    return true;
  }
  return tokens.every((token) => token === 'auto' || isCssLength(token, { allowNegative: false }));
}

export function IsBackgroundSize(): PropertyDecorator {
  return Rule(
    'isBackgroundSize',
    isBackgroundSize,
    'must be auto, cover, contain, or one or two CSS lengths or percentages (e.g. "100px 50%")',
    { type: 'string', minLength: 1, maxLength: CSS_VALUE_MAX_LENGTH },
  );
}
