import { type AccountResponse, type MeResponse, type TokenResponse } from '@layout/contracts';
import { type AccountRecord } from './accounts.repository';
import { type IssuedToken } from './accounts.service';
import { type AuthenticatedAccount } from '../common/auth/authenticated-account';

export const presentAccount = (account: AccountRecord): AccountResponse => ({
  _id: account.id,
  username: account.username,
  createdAt: account.createdAt.toISOString(),
});

export const presentMe = (account: AuthenticatedAccount): MeResponse => ({
  _id: account.id,
  username: account.username,
});

export const presentToken = (issued: IssuedToken): TokenResponse => ({
  token: issued.token,
  tokenType: 'Bearer',
  expiresIn: issued.expiresInSeconds,
});
