import { CSS_NAMED_COLORS } from './css-named-colors';
import { isBackgroundPosition } from './is-background-position';
import { isBackgroundSize } from './is-background-size';
import { isCssColor } from './is-css-color';
import { isImageDimension } from './is-image-dimension';

describe('background-size', () => {
  it.each([
    'auto',
    'cover',
    'contain',
    '100px',
    '50%',
    'auto 100%',
    '1.5em 2rem',
    '0',
    '.5vw 10vmax',
    '3ch',
    '2in 1pc',
    'AUTO 10PX',
  ])('accepts %j', (value) => expect(isBackgroundSize(value)).toBe(true));

  it.each([
    '',
    ' ',
    'cover contain',
    'cover 10px',
    '10',
    '-10px',
    '10px 20px 30px',
    '10 px',
    'big',
    'calc(100% - 1px)',
    `${'1'.repeat(200)}px`,
    10,
    null,
  ])('rejects %j', (value) => expect(isBackgroundSize(value)).toBe(false));
});

describe('background-position', () => {
  it.each([
    'center',
    'center center',
    'left top',
    'top left',
    'right bottom',
    'center left',
    '10px 50%',
    'left 10px',
    '10px top',
    '-10px -5%',
    '0 0',
    '25%',
  ])('accepts %j', (value) => expect(isBackgroundPosition(value)).toBe(true));

  it.each([
    '',
    'left right',
    'top bottom',
    'left left',
    'top 10px',
    '10px left',
    'middle',
    'left top 10px',
    '10',
    5,
  ])('rejects %j', (value) => expect(isBackgroundPosition(value)).toBe(false));
});

describe('CSS colour', () => {
  it.each([
    '#fff',
    '#FFFF',
    '#a1b2c3',
    '#a1b2c3d4',
    'rgb(0, 0, 0)',
    'rgba(255, 255, 255, 1)',
    'rgba(255,255,255,0.5)',
    'RGB(10%, 20%, 30%)',
    'rgb(255 128 0 / 50%)',
    'rgba(0 0 0)',
    'red',
    'RebeccaPurple',
    'transparent',
    'lightgoldenrodyellow',
  ])('accepts %j', (value) => expect(isCssColor(value)).toBe(true));

  it.each([
    '',
    '#ff',
    '#fffff',
    '#ggg',
    'fff',
    'rgb(256, 0, 0)',
    'rgb(0, 0)',
    'rgba(0, 0, 0, 1.5)',
    'rgba(0, 0, 0, 1, 1)',
    'rgb(-1, 0, 0)',
    'rgb(101%, 0%, 0%)',
    'rgb(0 0 0 /)',
    'rgb(0 0 0 / 1 / 1)',
    'hsl(0, 0%, 0%)',
    'reddish',
    'currentcolor',
    'red; background: url(x)',
    123,
  ])('rejects %j', (value) => expect(isCssColor(value)).toBe(false));

  it('knows all 148 CSS named colours plus transparent', () => {
    expect(CSS_NAMED_COLORS.size).toBe(149);
  });
});

describe('image dimension', () => {
  it.each(['600px', '50%', 'auto', '0', '12.5em', 0, 600, 12.5])('accepts %j', (value) =>
    expect(isImageDimension(value)).toBe(true),
  );

  it.each(['600', '-1px', 'wide', '', -1, Infinity, NaN, true, null])('rejects %j', (value) =>
    expect(isImageDimension(value)).toBe(false),
  );
});
