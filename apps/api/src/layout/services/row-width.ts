import { ROW_WIDTH } from '@layout/contracts';
import { RowWidthExceededError } from '../errors';

/** The sizes of a row's columns add up to at most 12. */
export function assertFitsInRow(othersWidth: number, size: number): void {
  if (othersWidth + size > ROW_WIDTH) {
    throw new RowWidthExceededError(Math.max(0, ROW_WIDTH - othersWidth), size, ROW_WIDTH);
  }
}
