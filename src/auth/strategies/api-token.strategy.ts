import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { Strategy } from 'passport-strategy';
import { RecognisedApiTokens } from '../../admission/admission-keys.js';
import type { Principal } from '../../principal/principal.js';
import { TokensService } from '../../tokens/tokens.service.js';
import { UsersService } from '../../users/users.service.js';
import { bearerFromHeader } from './credential-extractors.js';

/**
 * Reads the bearer credential from the Authorization header only. passport-http-bearer
 * also reads `access_token` from the query string and the body (long-lived secrets in
 * proxy logs, and a 500 on an array value), so this small strategy replaces it.
 */
type VerifyDone = (error: Error | null, principal?: Principal | false | null) => void;

class HeaderBearerStrategy extends Strategy {
  /** `verify` is the validate callback PassportStrategy hands every strategy last. */
  constructor(private readonly verify: (secret: string, done: VerifyDone) => void) {
    super();
  }

  override authenticate(req: Request): void {
    const secret = bearerFromHeader(req);
    if (!secret) return this.fail(401);
    this.verify(secret, (error, principal) => {
      if (error) return this.error(error);
      return principal ? this.success(principal) : this.fail(401);
    });
  }
}

/** `Authorization: Bearer cfg_…`: an API token, looked up by the hash of its secret. */
@Injectable()
export class ApiTokenStrategy extends PassportStrategy(HeaderBearerStrategy, 'api') {
  constructor(
    private readonly tokens: TokensService,
    private readonly users: UsersService,
    private readonly recognised: RecognisedApiTokens,
  ) {
    super();
  }

  async validate(secret: string): Promise<Principal | false> {
    const token = await this.tokens.authenticate(secret);
    if (!token) return false;
    const principal = await this.users.principalFor(token.userId, 'api', {
      tokenId: token.tokenId,
    });
    // Its next requests count under the token, not the client address (src/admission).
    if (principal) this.recognised.accepted(secret);
    return principal;
  }
}
