import { ValidationError } from 'class-validator';
import { describeFieldError, summarizeFieldErrors } from './field-error-summary';
import { toFieldErrors } from './field-errors';
import { appendPointer, escapePointerToken } from './json-pointer';

function error(
  property: string,
  constraints?: Record<string, string>,
  children: ValidationError[] = [],
): ValidationError {
  return Object.assign(new ValidationError(), { property, constraints, children });
}

describe('toFieldErrors', () => {
  it('builds RFC 6901 pointers through nested objects and array indexes', () => {
    const errors = [
      error('contents', undefined, [
        error('2', undefined, [
          error('style', undefined, [error('opacity', { isNumberInRange: 'must be 0..1' })]),
        ]),
      ]),
    ];
    expect(toFieldErrors(errors)).toEqual([
      { pointer: '/contents/2/style/opacity', detail: 'must be 0..1' },
    ]);
  });

  it('escapes ~ and / in member names', () => {
    expect(toFieldErrors([error('a/b~c', { whitelistValidation: 'x' })])).toEqual([
      { pointer: '/a~1b~0c', detail: 'is not a known member' },
    ]);
    expect(escapePointerToken('~1/')).toBe('~01~1');
    expect(appendPointer('/items', 0)).toBe('/items/0');
  });

  it('words an unknown member and an unknown value for people', () => {
    const unknownValue = Object.assign(new ValidationError(), {
      property: undefined,
      constraints: { unknownValue: 'an unknown value was passed to the validate function' },
    });
    expect(
      toFieldErrors([error('extra', { whitelistValidation: 'property extra should not exist' })]),
    ).toEqual([{ pointer: '/extra', detail: 'is not a known member' }]);
    expect(toFieldErrors([error('data', undefined, [unknownValue])])).toEqual([
      { pointer: '/data', detail: 'must be an object' },
    ]);
  });

  it('joins distinct messages of one member and ignores what lies inside a wrong value', () => {
    const errors = [
      error(
        'style',
        { isObject: 'must be an object', nestedValidation: 'must be an object', other: 'is odd' },
        [error('0', { x: 'inner' })],
      ),
    ];
    expect(toFieldErrors(errors)).toEqual([
      { pointer: '/style', detail: 'must be an object; is odd' },
    ]);
  });

  it('starts pointers at the given base', () => {
    expect(toFieldErrors([error('size', { a: 'bad' })], '/columns/1')).toEqual([
      { pointer: '/columns/1/size', detail: 'bad' },
    ]);
  });
});

describe('summarizeFieldErrors', () => {
  it('turns the first error into a sentence and counts the rest', () => {
    expect(
      describeFieldError({ pointer: '/size', detail: 'must be an integer from 1 to 12' }),
    ).toBe('size must be an integer from 1 to 12');
    expect(describeFieldError({ pointer: '', detail: 'must be a JSON object' })).toBe(
      'the body must be a JSON object',
    );
    expect(
      summarizeFieldErrors([
        { pointer: '/contents/0/a~1b', detail: 'is not a known member' },
        { pointer: '/size', detail: 'is required' },
      ]),
    ).toBe('contents.0.a/b is not a known member (and 1 more error)');
  });
});
