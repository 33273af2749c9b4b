import { type ProjectRole } from '@layout/contracts';
import { DomainError, type OwnProblem } from '../../common/errors/domain-error';

/**
 * A member of the project asked for what its role does not allow: 403 with its `role` and the
 * `required` one. (For an account that is no member, the project does not exist: 404.)
 */
export class ForbiddenByRoleError extends DomainError {
  constructor(
    readonly role: ProjectRole,
    readonly required: ProjectRole,
    what = 'do this',
  ) {
    super(`${article(role)} ${role} of this project cannot ${what}; it needs the role ${required}`);
  }

  problem(): OwnProblem {
    return { kind: 'forbiddenByRole', extensions: { role: this.role, required: this.required } };
  }
}

/** No account has the username a member was to be added by. */
export class AccountNotFoundError extends DomainError {
  constructor() {
    super('No account has this username');
  }

  problem(): OwnProblem {
    return { kind: 'accountNotFound' };
  }
}

export class AlreadyAMemberError extends DomainError {
  constructor() {
    super('This account is already a member of the project');
  }

  problem(): OwnProblem {
    return { kind: 'alreadyAMember' };
  }
}

/** The owner asked to leave, to be removed, or to drop its role without handing over. */
export class OwnerMustRemainError extends DomainError {
  constructor(detail = 'The owner cannot leave the project; hand it over to another member first') {
    super(detail);
  }

  problem(): OwnProblem {
    return { kind: 'ownerMustRemain' };
  }
}

function article(role: ProjectRole): string {
  return role === 'owner' ? 'The' : role === 'editor' ? 'An' : 'A';
}
