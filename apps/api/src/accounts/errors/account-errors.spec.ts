import { toProblem } from '../../common/filters/problem';
import {
  InvalidCredentialsError,
  RecentSignInRequiredError,
  SignUpDisabledError,
  TooManyLoginAttemptsError,
  UsernameTakenError,
  WrongPasswordError,
} from '.';

describe("the accounts' errors, as problems", () => {
  it('UsernameTakenError → 409 username-taken', () => {
    const problem = toProblem(new UsernameTakenError(), '/accounts');
    expect(problem.status).toBe(409);
    expect(problem.body.type).toBe('/problems/username-taken');
  });

  it('InvalidCredentialsError → 401 invalid-credentials', () => {
    const problem = toProblem(new InvalidCredentialsError(), '/accounts/auth/token');
    expect(problem.status).toBe(401);
    expect(problem.body).toMatchObject({
      type: '/problems/invalid-credentials',
      detail: 'Wrong username or password',
    });
  });

  it('WrongPasswordError → 403 wrong-password, without a challenge', () => {
    const problem = toProblem(new WrongPasswordError(), '/accounts/auth/me/password');
    expect(problem.status).toBe(403);
    expect(problem.headers).toEqual({});
    expect(problem.body).toMatchObject({
      type: '/problems/wrong-password',
      title: 'Wrong password',
      status: 403,
    });
  });

  it('RecentSignInRequiredError → 403 recent-sign-in-required, saying how recent', () => {
    const problem = toProblem(new RecentSignInRequiredError(5), '/accounts/auth/me');
    expect(problem.status).toBe(403);
    expect(problem.body).toMatchObject({
      type: '/problems/recent-sign-in-required',
      title: 'Recent sign-in required',
      status: 403,
      detail: expect.stringContaining('last 5 minutes'),
    });
  });

  it('TooManyLoginAttemptsError → 429 rate-limited with Retry-After', () => {
    const problem = toProblem(new TooManyLoginAttemptsError(42), '/accounts/auth/token');
    expect(problem.status).toBe(429);
    expect(problem.body.type).toBe('/problems/rate-limited');
    expect(problem.headers).toEqual({ 'retry-after': '42' });
  });

  it('SignUpDisabledError → 404 (the operation does not exist)', () => {
    const problem = toProblem(new SignUpDisabledError(), '/accounts');
    expect(problem.status).toBe(404);
    expect(problem.body.type).toBe('/problems/not-found');
  });
});
