import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import { AccountsService } from './accounts.service';
import { type SignedInAccount } from './signed-in-account';

// RFC 6750 tokens are base64url-ish; anything else cannot be one of ours, so skip the lookup.
const TOKEN_SHAPE = /^[A-Za-z0-9\-._~+/]{1,512}=*$/;

@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(private readonly accounts: AccountsService) {
    super({ realm: 'layout' });
  }

  async validate(token: string): Promise<SignedInAccount | false> {
    if (!TOKEN_SHAPE.test(token)) return false;
    return (await this.accounts.authenticate(token)) ?? false;
  }
}
