import { DomainError, type OwnProblem } from '../../common/errors/domain-error';

/** A content's `data`, as stored JSON, is larger than the contract allows. */
export class ContentTooLargeError extends DomainError {
  constructor(
    readonly limitBytes: number,
    /** JSON pointer of the offending `data` in the request body. */
    readonly pointer: string,
  ) {
    super(`${pointer} is larger than ${limitBytes / 1024} KiB as stored JSON`);
  }

  problem(): OwnProblem {
    const detail = `is larger than ${this.limitBytes} bytes`;
    return { kind: 'payloadTooLarge', extensions: { errors: [{ pointer: this.pointer, detail }] } };
  }
}
