import { CSS_VALUE_MAX_LENGTH } from '../limits';

export const CSS_LENGTH_UNITS = [
  'px',
  'em',
  'rem',
  '%',
  'vw',
  'vh',
  'vmin',
  'vmax',
  'cm',
  'mm',
  'in',
  'pt',
  'pc',
  'ex',
  'ch',
] as const;

const NUMBER = String.raw`(?:\d+(?:\.\d+)?|\.\d+)`;
const UNIT = `(?:${CSS_LENGTH_UNITS.join('|')})`;
// CSS units and keywords are case-insensitive; a unitless length is only valid as zero.
const NON_NEGATIVE_LENGTH = new RegExp(`^(?:0|${NUMBER}${UNIT})$`, 'i');
const SIGNED_LENGTH = new RegExp(`^[+-]?(?:0|${NUMBER}${UNIT})$`, 'i');

/** A CSS length or percentage such as `100px`, `50%`, `1.5em` or `0`. */
export function isCssLength(token: string, options: { allowNegative: boolean }): boolean {
  return (options.allowNegative ? SIGNED_LENGTH : NON_NEGATIVE_LENGTH).test(token);
}

/** Splits a short CSS value into its space-separated tokens, lower-cased; null when too long. */
export function cssTokens(value: unknown): string[] | null {
  if (typeof value !== 'string' || value.length > CSS_VALUE_MAX_LENGTH) {
    return null;
  }
  const trimmed = value.trim();
  return trimmed === '' ? [] : trimmed.toLowerCase().split(/\s+/);
}
