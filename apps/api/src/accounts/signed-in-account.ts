import { type BearerSession } from '../common/auth/authenticated-account';

/** The caller, as the bearer strategy knows it: the account, and the token of this request. */
export interface SignedInAccount extends BearerSession {
  readonly token: {
    /** Its SHA-256, what is stored: revoking it names it so. */
    readonly hash: string;
    /** When it was obtained: a recent sign-in is what deleting the account asks for. */
    readonly issuedAt: Date;
  };
}
