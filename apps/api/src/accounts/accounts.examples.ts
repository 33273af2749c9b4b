import {
  type AccountResponse,
  type ChangePasswordDto,
  type MeResponse,
  type SignUpDto,
  type TokenRequestDto,
  type TokenResponse,
} from '@layout/contracts';
import { EXAMPLE_CREATED_AT, EXAMPLE_IDS } from '../openapi/example-ids';

/**
 * The example user, in the body of sign-up and of the token request alike: in the explorer,
 * "Try it out" on the one and then on the other signs in the user just created.
 */
export const CREDENTIALS_EXAMPLE: SignUpDto & TokenRequestDto = {
  username: 'ada@example.com',
  password: 'correct horse battery staple',
};

export const CHANGE_PASSWORD_EXAMPLE: ChangePasswordDto = {
  currentPassword: CREDENTIALS_EXAMPLE.password,
  newPassword: 'a new horse battery staple',
};

export const ACCOUNT_EXAMPLE: AccountResponse = {
  _id: EXAMPLE_IDS.account,
  username: CREDENTIALS_EXAMPLE.username,
  createdAt: EXAMPLE_CREATED_AT,
};

export const ME_EXAMPLE: MeResponse = {
  _id: EXAMPLE_IDS.account,
  username: CREDENTIALS_EXAMPLE.username,
};

export const TOKEN_EXAMPLE: TokenResponse = {
  token: 'Vf3pQ0m1a2Zr8yTq5nK7cX9bW4sE6uHjLd2Rt8Yp0Qa',
  tokenType: 'Bearer',
  expiresIn: 3600,
};
