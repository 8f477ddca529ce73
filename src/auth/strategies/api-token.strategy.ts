import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import passportHttpBearer from 'passport-http-bearer';
import type { Principal } from '../../principal/principal.js';
import { TokensService } from '../../tokens/tokens.service.js';
import { UsersService } from '../../users/users.service.js';

/** `Authorization: Bearer cfg_…`: an API token, looked up by the hash of its secret. */
@Injectable()
export class ApiTokenStrategy extends PassportStrategy(passportHttpBearer.Strategy, 'api') {
  constructor(
    private readonly tokens: TokensService,
    private readonly users: UsersService,
  ) {
    super();
  }

  async validate(secret: string): Promise<Principal | false> {
    const token = await this.tokens.authenticate(secret);
    if (!token) return false;
    return this.users.principalFor(token.userId, 'api', { tokenId: token.tokenId });
  }
}
