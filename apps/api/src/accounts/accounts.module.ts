import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { CountersModule } from '../common/counters/counters.module';
import { AccessTokenCache } from './access-token-cache';
import { AccountPurge } from './account-purge';
import { AccountPurgeRepository } from './account-purge.repository';
import { AccountsController } from './accounts.controller';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';
import { BearerStrategy } from './bearer.strategy';
import { LoginAttemptLimiter } from './login-attempt-limiter';
import { LoginAttemptsRefresh } from './login-attempts-refresh.interceptor';
import { PasswordHasher } from './password-hasher';

@Module({
  imports: [PassportModule.register({ session: false }), CountersModule],
  controllers: [AccountsController],
  providers: [
    AccountsService,
    AccessTokenCache,
    AccountsRepository,
    AccountPurge,
    AccountPurgeRepository,
    PasswordHasher,
    LoginAttemptLimiter,
    LoginAttemptsRefresh,
    BearerStrategy,
  ],
  exports: [AccountsService],
})
export class AccountsModule {}
