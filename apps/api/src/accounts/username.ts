import { type NormalizedUsername, normalizeUsername, usernameProblem } from '@layout/contracts';
import { RequestValidationError } from '../common/errors';

// The rule itself lives in the DTO library (libs/contracts/src/account/username.ts), so that
// SignUpDto, and a browser app with it, refuses exactly what the server refuses. These are the
// two ways the server applies it.

/**
 * The key a token request looks the account up by: the typed name trimmed, NFKC, lower-cased.
 * Not validated: a name no account can have simply matches none (401), and accounts created
 * before the rule existed keep signing in.
 */
export { usernameKey } from '@layout/contracts';

/**
 * The username a new account is stored with and its key, for sign-up and the operators'
 * command; a name the rule refuses is a 400 at `/username`, whoever calls.
 */
export function usernameForNewAccount(typed: string): NormalizedUsername {
  const problem = usernameProblem(typed);
  if (problem !== undefined) {
    throw new RequestValidationError([{ pointer: '/username', detail: problem }]);
  }
  return normalizeUsername(typed);
}
