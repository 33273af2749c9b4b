import { randomUUID } from 'node:crypto';

/** The channel on which every instance hears of the tokens that stopped working. */
export const TOKEN_REVOCATIONS_CHANNEL = 'access_token_revocations';
/**
 * The channel on which every instance says it has dropped what a revocation named (the
 * payload: its nonce), so that the revoking instance knows when none serves it any more.
 */
export const TOKEN_REVOCATIONS_HEARD_CHANNEL = 'access_token_revocations_heard';

/**
 * What stopped working: one token (by its SHA-256), or every token of an account, but for the
 * one `except` (a password change keeps the token that made it).
 */
export type Revoked =
  { readonly tokenHash: string } | { readonly accountId: string; readonly except?: string };

/** Whether the revocation stops the token `tokenHash` of the account `accountId`. */
export function revokes(
  revoked: Revoked,
  token: { accountId: string; tokenHash: string },
): boolean {
  if ('tokenHash' in revoked) return revoked.tokenHash === token.tokenHash;
  return revoked.accountId === token.accountId && revoked.except !== token.tokenHash;
}

/**
 * A revocation as the revoking transaction sends it (`pg_notify(channel, payload)`): what was
 * revoked, and a nonce by which the sending instance knows its own notice when it comes back.
 */
export interface RevocationNotice {
  readonly channel: string;
  readonly payload: string;
  readonly nonce: string;
}

export function revocationNotice(revoked: Revoked): RevocationNotice {
  const nonce = randomUUID();
  const subject =
    'tokenHash' in revoked
      ? `token ${revoked.tokenHash}`
      : revoked.except === undefined
        ? `account ${revoked.accountId}`
        : `account-except ${revoked.accountId} ${revoked.except}`;
  return { channel: TOKEN_REVOCATIONS_CHANNEL, payload: `${subject} ${nonce}`, nonce };
}

/** A notice's payload read back; undefined for one this version does not know. */
export function readRevocation(payload: string): { revoked: Revoked; nonce: string } | undefined {
  const [kind, ...fields] = payload.split(' ');
  if (kind === 'account-except') {
    const [accountId, except, nonce, ...rest] = fields;
    if (!accountId || !except || !nonce || rest.length > 0) return undefined;
    return { revoked: { accountId, except }, nonce };
  }
  const [subject, nonce, ...rest] = fields;
  if (!subject || !nonce || rest.length > 0) return undefined;
  if (kind === 'token') return { revoked: { tokenHash: subject }, nonce };
  if (kind === 'account') return { revoked: { accountId: subject }, nonce };
  return undefined;
}
