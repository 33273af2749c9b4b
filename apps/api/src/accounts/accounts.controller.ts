import { Body, Controller, Get, HttpCode, Ip, Post, UseInterceptors } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AccountResponse,
  MeResponse,
  SignUpDto,
  TokenRequestDto,
  TokenResponse,
} from '@layout/contracts';
import {
  ApiCreatedJsonResponse,
  ApiOkJsonResponse,
  ApiProblems,
  ApiProtected,
  BODY_PROBLEMS,
  COMMON_PROBLEMS,
} from '../common/openapi/decorators';
import { ACCOUNT_EXAMPLE, ME_EXAMPLE, TOKEN_EXAMPLE } from '../common/openapi/examples';
import { CurrentAccount } from '../common/decorators/current-account.decorator';
import { Public } from '../common/decorators/public.decorator';
import { presentAccount, presentMe, presentToken } from './accounts.presenter';
import { LoginAttemptsRefresh } from './login-attempts-refresh.interceptor';
import { AccountsService } from './accounts.service';
import { type AuthenticatedAccount } from '../common/auth/authenticated-account';

@ApiTags('accounts')
@Controller('accounts')
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Public()
  @Post()
  @ApiOperation({
    summary: 'Sign up',
    description:
      'Creates an account; no token needed. The username is stored trimmed and in Unicode ' +
      'NFKC, and is unique regardless of case and width (`Ada`, ` ada` and `ａｄａ` are one ' +
      'name). Then get a token from `POST /accounts/auth/token`. Servers can switch sign-up ' +
      'off (404).',
  })
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
  @UseInterceptors(LoginAttemptsRefresh)
  @HttpCode(200)
  @ApiOperation({
    summary: 'Get a token',
    description:
      'Exchanges a username and password for a bearer token (valid one hour by default); no ' +
      'token needed. Send it as `Authorization: Bearer <token>` on every other operation. In ' +
      'this explorer: press "Try it out", run this operation, copy `token` from the answer, ' +
      'press **Authorize** (top of the page) and paste it; the explorer then sends it with ' +
      'every request. The username is compared as at sign-up (trimmed, NFKC, any case). ' +
      'After a few failures from one address, for one username or for any, each further ' +
      'failure makes that address wait before its next attempt (429), longer every time.',
  })
  @ApiOkJsonResponse(TokenResponse, TOKEN_EXAMPLE, 'The token.')
  @ApiProblems(...BODY_PROBLEMS, 'invalidCredentials', ...COMMON_PROBLEMS, {
    rateLimited: {
      when:
        'Too many failed sign-ins from this address, for this username or for any (or too ' +
        'many requests from it): wait for `Retry-After` seconds before trying again.',
      detail: 'Too many failed sign-ins from this address; try again later',
    },
  })
  async issueToken(
    @Body() body: TokenRequestDto,
    @Ip() clientAddress: string,
  ): Promise<TokenResponse> {
    return presentToken(
      await this.accounts.issueToken(body.username, body.password, clientAddress),
    );
  }

  @Get('auth/me')
  @ApiOperation({
    summary: 'Who am I',
    description: 'The account the bearer token belongs to.',
  })
  @ApiOkJsonResponse(MeResponse, ME_EXAMPLE, 'The calling account.')
  @ApiProtected()
  me(@CurrentAccount() account: AuthenticatedAccount): MeResponse {
    return presentMe(account);
  }
}
