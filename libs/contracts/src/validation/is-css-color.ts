import { CSS_VALUE_MAX_LENGTH } from '../limits';
import { CSS_NAMED_COLORS } from './css-named-colors';
import { Rule } from './rule';

const HEX_COLOR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const RGB_FUNCTION = /^rgba?\((.*)\)$/i;
const NUMBER = /^(?:\d+(?:\.\d+)?|\.\d+)$/;

function isNumberUpTo(token: string, max: number): boolean {
  return NUMBER.test(token) && Number(token) <= max;
}

function isPercentage(token: string): boolean {
  return token.endsWith('%') && isNumberUpTo(token.slice(0, -1), 100);
}

function isChannel(token: string): boolean {
  return isNumberUpTo(token, 255) || isPercentage(token);
}

function isAlpha(token: string): boolean {
  return isNumberUpTo(token, 1) || isPercentage(token);
}

/**
 * `rgb()`/`rgba()` in the comma form (`rgba(255, 255, 255, 1)`) or the space form
 * (`rgb(255 255 255 / 50%)`): three channels 0..255 or 0%..100%, an optional alpha 0..1 or 0%..100%.
 */
function isRgbFunction(value: string): boolean {
  const match = RGB_FUNCTION.exec(value);
  if (match === null) {
    return false;
  }
  const inner = (match[1] ?? '').trim();
  let channels: string[];
  let alpha: string | undefined;
  if (inner.includes(',')) {
    channels = inner.split(',').map((part) => part.trim());
    if (channels.length === 4) {
      alpha = channels.pop();
    }
  } else {
    const [colour = '', slashAlpha, ...rest] = inner.split('/');
    if (rest.length > 0) {
      return false;
    }
    channels = colour.trim().split(/\s+/);
    alpha = slashAlpha?.trim();
  }
  return (
    channels.length === 3 && channels.every(isChannel) && (alpha === undefined || isAlpha(alpha))
  );
}

export function isCssColor(value: unknown): boolean {
  if (typeof value !== 'string' || value.length > CSS_VALUE_MAX_LENGTH) {
    return false;
  }
  const colour = value.trim();
  return (
    HEX_COLOR.test(colour) || isRgbFunction(colour) || CSS_NAMED_COLORS.has(colour.toLowerCase())
  );
}

export function IsCssColor(): PropertyDecorator {
  return Rule(
    'isCssColor',
    isCssColor,
    'must be a CSS colour: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(), rgba() or a colour name',
    { type: 'string', minLength: 1, maxLength: CSS_VALUE_MAX_LENGTH },
  );
}
