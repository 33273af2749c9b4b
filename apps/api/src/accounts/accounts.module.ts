import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { AccountsController } from './accounts.controller';
import { AccountsRepository } from './accounts.repository';
import { AccountsService } from './accounts.service';
import { BearerStrategy } from './bearer.strategy';
import { LoginAttemptLimiter } from './login-attempt-limiter';
import { PasswordHasher } from './password-hasher';

@Module({
  imports: [PassportModule.register({ session: false })],
  controllers: [AccountsController],
  providers: [
    AccountsService,
    AccountsRepository,
    PasswordHasher,
    LoginAttemptLimiter,
    BearerStrategy,
  ],
  exports: [AccountsService],
})
export class AccountsModule {}
