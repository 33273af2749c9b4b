import { ROW_WIDTH } from '@layout/contracts';
import { RowWidthExceededError } from '../errors';
import { assertFitsInRow } from './row-width';

function thrownBy(check: () => void): unknown {
  try {
    check();
    return undefined;
  } catch (error) {
    return error;
  }
}

describe('assertFitsInRow(othersWidth, size)', () => {
  it('uses a row width of 12', () => {
    expect(ROW_WIDTH).toBe(12);
  });

  it.each([
    [0, 12],
    [6, 6],
    [11, 1],
    [0, 1],
  ])('accepts others %i + size %i (at most 12)', (others, size) => {
    expect(() => assertFitsInRow(others, size)).not.toThrow();
  });

  it.each([
    [6, 7, 6],
    [11, 2, 1],
    [12, 1, 0],
    [0, 13, 12],
  ])(
    'refuses others %i + size %i with RowWidthExceededError, availableSize %i',
    (others, size, available) => {
      const error = thrownBy(() => assertFitsInRow(others, size));
      expect(error).toBeInstanceOf(RowWidthExceededError);
      expect(error).toMatchObject({
        availableSize: available,
        requestedSize: size,
        rowWidth: 12,
      });
    },
  );

  it('never reports a negative availableSize, even for a row already over 12', () => {
    const error = thrownBy(() => assertFitsInRow(14, 1));
    expect((error as RowWidthExceededError).availableSize).toBe(0);
  });
});
