import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  type AccountResponse,
  type MeResponse,
  SignUpDto,
  TokenRequestDto,
  type TokenResponse,
} from '@layout/contracts';
import { CurrentAccount } from '../common/decorators/current-account.decorator';
import { Public } from '../common/decorators/public.decorator';
import { presentAccount, presentMe, presentToken } from './accounts.presenter';
import { AccountsService } from './accounts.service';
import { type AuthenticatedAccount } from './authenticated-account';

@ApiTags('accounts')
@Controller('accounts')
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  /** Create an account. Usernames are unique regardless of case. */
  @Public()
  @Post()
  async signUp(@Body() body: SignUpDto): Promise<AccountResponse> {
    return presentAccount(await this.accounts.signUp(body.username, body.password));
  }

  /** Exchange a username and password for a bearer token. */
  @Public()
  @Post('auth/token')
  @HttpCode(200)
  async issueToken(@Body() body: TokenRequestDto): Promise<TokenResponse> {
    return presentToken(await this.accounts.issueToken(body.username, body.password));
  }

  /** The account the bearer token belongs to. */
  @ApiBearerAuth()
  @Get('auth/me')
  me(@CurrentAccount() account: AuthenticatedAccount): MeResponse {
    return presentMe(account);
  }
}
