import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Ip,
  Post,
  Put,
  UseInterceptors,
} from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AccountResponse,
  ChangePasswordDto,
  MeResponse,
  SignUpDto,
  TokenRequestDto,
  TokenResponse,
} from '@layout/contracts';
import {
  ApiCreatedJsonResponse,
  ApiNoContentResponse,
  ApiOkJsonResponse,
  ApiProblems,
  ApiProtected,
  ApiTaggedRead,
  BODY_PROBLEMS,
  COMMON_PROBLEMS,
} from '../openapi/decorators';
import {
  ACCOUNT_EXAMPLE,
  CHANGE_PASSWORD_EXAMPLE,
  CREDENTIALS_EXAMPLE,
  ME_EXAMPLE,
  TOKEN_EXAMPLE,
} from './accounts.examples';
import { CurrentAccount } from '../common/decorators/current-account.decorator';
import { Public } from '../common/decorators/public.decorator';
import { NoStore } from '../common/http/cache-control';
import { Conditions, type RequestConditions } from '../common/http/request-conditions';
import { type Representation } from '../common/http/representation';
import { presentAccount, presentMe, presentToken } from './accounts.presenter';
import { CurrentSignIn } from './current-sign-in.decorator';
import { LoginAttemptsRefresh } from './login-attempts-refresh.interceptor';
import { AccountsService, RECENT_SIGN_IN_MINUTES } from './accounts.service';
import { type SignedInAccount } from './signed-in-account';
import { type AuthenticatedAccount } from '../common/auth/authenticated-account';

/** One user in the sign-up and token examples: in the explorer, the one signs in the other. */
const EXAMPLE_USER = {
  summary: 'The example user (sign up, then get a token with the same)',
  value: CREDENTIALS_EXAMPLE,
};

const FAILED_SIGN_INS = {
  when:
    'Too many failed sign-ins from this address, for this username or for any, or for this ' +
    'username from anywhere (then a device that signed in to the account before still gets ' +
    'in), or too many requests from this address: wait for `Retry-After` seconds before ' +
    'trying again.',
  detail: 'Too many failed sign-ins from this address; try again later',
};

@ApiTags('accounts')
@Controller('accounts')
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Public()
  @Post()
  @NoStore()
  @ApiOperation({
    summary: 'Sign up',
    description:
      'Creates an account; no token needed. The username is stored trimmed and in Unicode ' +
      'NFKC, and is unique regardless of case and width (`Ada`, ` ada` and `ａｄａ` are one ' +
      'name). Then get a token from `POST /accounts/auth/token`, with the same example in ' +
      'this explorer. Servers can switch sign-up off (404).',
  })
  @ApiBody({ type: SignUpDto, examples: { ada: EXAMPLE_USER } })
  @ApiCreatedJsonResponse(AccountResponse, ACCOUNT_EXAMPLE, 'The new account.', {
    location: false,
  })
  @ApiProblems(...BODY_PROBLEMS, 'notFound', 'usernameTaken', ...COMMON_PROBLEMS, {
    notFound: {
      when: 'Sign-up is switched off on this server: ask an operator for an account.',
      detail: 'Sign-up is disabled on this server; ask an operator for an account',
    },
  })
  async signUp(@Body() body: SignUpDto): Promise<AccountResponse> {
    return presentAccount(await this.accounts.signUp(body.username, body.password));
  }

  @Public()
  @Post('auth/token')
  @NoStore()
  @UseInterceptors(LoginAttemptsRefresh)
  @HttpCode(200)
  @ApiOperation({
    summary: 'Get a token',
    description:
      'Exchanges a username and password for a bearer token (valid one hour by default); no ' +
      'token needed. Send it as `Authorization: Bearer <token>` on every other operation. In ' +
      'this explorer: sign up with `POST /accounts` first (its example creates the user of ' +
      'this one), then press "Try it out" here, run it, copy `token` from the answer, press ' +
      '**Authorize** (top of the page) and paste it; the explorer then sends it with every ' +
      'request. The username is compared as at sign-up (trimmed, NFKC, any case). After a few ' +
      'failures from one address, for one username or for any, each further failure makes ' +
      'that address wait before its next attempt (429), longer every time; so do failures ' +
      'for one username from many addresses, except at addresses the account signed in from ' +
      'before.',
  })
  @ApiBody({ type: TokenRequestDto, examples: { ada: EXAMPLE_USER } })
  @ApiOkJsonResponse(TokenResponse, TOKEN_EXAMPLE, 'The token.')
  @ApiProblems(...BODY_PROBLEMS, 'invalidCredentials', ...COMMON_PROBLEMS, {
    rateLimited: FAILED_SIGN_INS,
  })
  async issueToken(
    @Body() body: TokenRequestDto,
    @Ip() clientAddress: string,
  ): Promise<TokenResponse> {
    return presentToken(
      await this.accounts.issueToken(body.username, body.password, clientAddress),
    );
  }

  @Delete('auth/token')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Sign out',
    description:
      'The token of this request stops working, on every instance of the service at once ' +
      '(401 from the next request on). Other tokens of the account keep working.',
  })
  @ApiNoContentResponse('Signed out: the token no longer works.')
  @ApiProtected()
  async signOut(@CurrentSignIn() caller: SignedInAccount): Promise<void> {
    await this.accounts.signOut(caller);
  }

  @Delete('auth/tokens')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Sign out everywhere',
    description:
      'Every token of the account stops working, this one included, on every instance of the ' +
      'service at once: every device signs in again.',
  })
  @ApiNoContentResponse('Signed out everywhere: no token of the account works any more.')
  @ApiProtected()
  async signOutEverywhere(@CurrentSignIn() caller: SignedInAccount): Promise<void> {
    await this.accounts.signOutEverywhere(caller);
  }

  @Get('auth/me')
  @ApiOperation({
    summary: 'Who am I',
    description: 'The account the bearer token belongs to.',
  })
  @ApiTaggedRead(MeResponse, ME_EXAMPLE, 'The calling account.')
  @ApiProtected()
  me(
    @CurrentAccount() account: AuthenticatedAccount,
    @Conditions() conditions: RequestConditions,
  ): Representation<MeResponse> {
    return presentMe(account, conditions);
  }

  @Put('auth/me/password')
  @NoStore()
  @UseInterceptors(LoginAttemptsRefresh)
  @HttpCode(204)
  @ApiOperation({
    summary: 'Change the password',
    description:
      'Checks `currentPassword`, then stores `newPassword` (8 to 256 characters, as at ' +
      'sign-up). Every token of the account but the one of this request stops working, on ' +
      'every instance at once: other devices sign in again with the new password. A wrong ' +
      '`currentPassword` answers 403 and counts as a failed sign-in: too many answer 429, as ' +
      'the token does.',
  })
  @ApiBody({
    type: ChangePasswordDto,
    examples: {
      ada: {
        summary: "The example user's password, and a new one",
        value: CHANGE_PASSWORD_EXAMPLE,
      },
    },
  })
  @ApiNoContentResponse('Changed: only the token of this request still works.')
  @ApiBearerAuth()
  @ApiProblems(...BODY_PROBLEMS, 'unauthorized', 'wrongPassword', ...COMMON_PROBLEMS, {
    rateLimited: FAILED_SIGN_INS,
  })
  async changePassword(
    @CurrentSignIn() caller: SignedInAccount,
    @Body() body: ChangePasswordDto,
    @Ip() clientAddress: string,
  ): Promise<void> {
    await this.accounts.changePassword(
      caller,
      body.currentPassword,
      body.newPassword,
      clientAddress,
    );
  }

  @Delete('auth/me')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete the account',
    description:
      'Deletes the account, its tokens, its projects and everything beneath them; its username ' +
      `is free again at once. Needs a token obtained in the last ${RECENT_SIGN_IN_MINUTES} ` +
      'minutes (else 403: get a new token and repeat). From this answer on, its tokens answer ' +
      '401 on every instance and its projects exist for nobody; what they stored is removed ' +
      'in the background, a project at a time. Cannot be undone.',
  })
  @ApiNoContentResponse('Deleted.')
  @ApiProblems('recentSignInRequired')
  @ApiProtected()
  async deleteAccount(@CurrentSignIn() caller: SignedInAccount): Promise<void> {
    await this.accounts.deleteAccount(caller);
  }
}
