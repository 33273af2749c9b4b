import { DomainError } from './domain-error';

/** DELETE of an asset that contents or styles still name. */
export class AssetInUseError extends DomainError {
  constructor(readonly paths: readonly string[]) {
    super('The asset is still used: change or delete what names it first');
  }
}

/** An upload whose bytes are not a whole image of an accepted type, or not of the declared one. */
export class UnsupportedImageError extends DomainError {
  constructor(detail: string) {
    super(detail);
  }
}

/** An upload larger than an asset may be. */
export class AssetTooLargeError extends DomainError {
  constructor(readonly limitBytes: number) {
    super(`An asset is at most ${limitBytes} bytes`);
  }
}

/** A range that starts past the end of the asset. */
export class RangeNotSatisfiableError extends DomainError {
  constructor(readonly size: number) {
    super('The range starts past the end of the asset');
  }
}

/** The asset store did not take or give the bytes. */
export class AssetStoreUnavailableError extends DomainError {
  constructor() {
    super('The asset store is unavailable');
  }
}
