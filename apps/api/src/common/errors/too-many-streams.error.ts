import { DomainError } from './domain-error';

/** The account already has as many event streams open as it may, on all instances. */
export class TooManyStreamsError extends DomainError {
  constructor(readonly limit: number) {
    super(`This account already has ${limit} event streams open; close one first`);
  }
}
