import { createHash } from 'node:crypto';
import { type AccountResponse, type MeResponse, type TokenResponse } from '@layout/contracts';
import { Representation } from '../common/http/representation';
import { type RequestConditions } from '../common/http/request-conditions';
import { SerializedJson } from '../common/json/serialized-json';
import { type AccountRecord } from './accounts.repository';
import { type IssuedToken } from './accounts.service';
import { type AuthenticatedAccount } from '../common/auth/authenticated-account';

export const presentAccount = (account: AccountRecord): AccountResponse => ({
  _id: account.id,
  username: account.username,
  createdAt: account.createdAt.toISOString(),
});

/**
 * The calling account, tagged by a digest of its document: a browser revalidates it (`private,
 * no-cache`) and gets 304 while it stays the same.
 */
export function presentMe(
  account: AuthenticatedAccount,
  conditions: RequestConditions,
): Representation<MeResponse> {
  const me: MeResponse = { _id: account.id, username: account.username };
  const json = JSON.stringify(me);
  const etag = `"a${createHash('sha256').update(json).digest('base64url').slice(0, 22)}"`;
  return conditions.isNotModified(etag)
    ? Representation.notModified(etag)
    : Representation.of(new SerializedJson<MeResponse>(json), { etag });
}

export const presentToken = (issued: IssuedToken): TokenResponse => ({
  token: issued.token,
  tokenType: 'Bearer',
  expiresIn: issued.expiresInSeconds,
});
