import { DomainError, type RefusalOfPart } from '../../common/errors/domain-error';

/**
 * A rule broken by one member of a body that holds many (a node of a tree that a create makes):
 * answered as the rule's own problem, with the member `pointer` (an RFC 6901 pointer into the
 * body) saying which.
 */
export class RefusedMemberError extends DomainError {
  constructor(
    readonly pointer: string,
    readonly refusal: DomainError,
  ) {
    super(`${pointer || 'The body'}: ${refusal.message}`);
  }

  problem(): RefusalOfPart {
    return { refusal: this.refusal, extensions: { pointer: this.pointer } };
  }
}
