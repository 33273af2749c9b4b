import { DomainError, type OwnProblem } from '../common/errors/domain-error';

/** DELETE of an asset that contents or styles still name. */
export class AssetInUseError extends DomainError {
  constructor(readonly paths: readonly string[]) {
    super('The asset is still used: change or delete what names it first');
  }

  problem(): OwnProblem {
    return { kind: 'assetInUse', extensions: { paths: this.paths } };
  }
}

/** An upload whose bytes are not a whole image of an accepted type, or not of the declared one. */
export class UnsupportedImageError extends DomainError {
  constructor(detail: string) {
    super(detail);
  }

  problem(): OwnProblem {
    return { kind: 'unsupportedMediaType' };
  }
}

/** An upload larger than an asset may be. */
export class AssetTooLargeError extends DomainError {
  constructor(readonly limitBytes: number) {
    super(`An asset is at most ${limitBytes} bytes`);
  }

  problem(): OwnProblem {
    return { kind: 'payloadTooLarge', extensions: { limit: this.limitBytes } };
  }
}

/** A range that starts past the end of the asset. */
export class RangeNotSatisfiableError extends DomainError {
  constructor(readonly size: number) {
    super('The range starts past the end of the asset');
  }

  problem(): OwnProblem {
    return { kind: 'rangeNotSatisfiable', headers: { 'content-range': `bytes */${this.size}` } };
  }
}

/** The asset store did not take or give the bytes. */
export class AssetStoreUnavailableError extends DomainError {
  constructor() {
    super('The asset store is unavailable');
  }

  problem(): OwnProblem {
    return { kind: 'assetStoreUnavailable', headers: { 'retry-after': '5' } };
  }
}
