import { toProblem } from '../../common/filters/problem';
import {
  AccountNotFoundError,
  AlreadyAMemberError,
  ForbiddenByRoleError,
  OwnerMustRemainError,
} from '.';

const INSTANCE = '/projects/p1/members';

describe("the members' errors, as problems", () => {
  it('ForbiddenByRoleError → 403 forbidden-by-role with the role and the one required', () => {
    const problem = toProblem(new ForbiddenByRoleError('viewer', 'editor'), INSTANCE);
    expect(problem.status).toBe(403);
    expect(problem.body).toMatchObject({
      type: '/problems/forbidden-by-role',
      status: 403,
      role: 'viewer',
      required: 'editor',
      detail: 'A viewer of this project cannot do this; it needs the role editor',
    });
  });

  it.each([
    [new AccountNotFoundError(), 404, '/problems/account-not-found'],
    [new AlreadyAMemberError(), 409, '/problems/already-a-member'],
    [new OwnerMustRemainError(), 409, '/problems/owner-must-remain'],
  ])('%s → its own problem', (error, status, type) => {
    expect(toProblem(error, INSTANCE).body).toMatchObject({ type, status });
  });
});
