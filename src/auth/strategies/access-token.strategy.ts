import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { AppConfig } from '../../config/app-config.js';
import { hasRequiredClaims, TOKEN_TYPES, type JwtClaims } from '../../jwt/jwt-claims.js';
import type { Principal } from '../../principal/principal.js';
import { UsersService } from '../../users/users.service.js';
import { SessionsService } from '../sessions.service.js';
import { bearerFromHeader } from './credential-extractors.js';
import { JwtStrategyBase, jwtVerifyOptions } from './jwt-options.js';
import { VerifiedTokens } from './verified-tokens.js';

/** Access tokens remembered as verified (a few MB at most). */
const VERIFIED_CAPACITY = 4096;

/** `Authorization: Bearer <access JWT>` from /v1/login or /v1/refresh, of a live session. */
@Injectable()
export class AccessTokenStrategy extends PassportStrategy(JwtStrategyBase, 'jwt') {
  private readonly verified = new VerifiedTokens(VERIFIED_CAPACITY);

  constructor(
    config: AppConfig,
    private readonly sessions: SessionsService,
    private readonly users: UsersService,
  ) {
    super({ ...jwtVerifyOptions(config), passReqToCallback: true });
  }

  /**
   * Passport calls this on a copy of the strategy made for the request (it carries
   * success/fail/error). A token verified before skips passport-jwt's verification;
   * everything else (the session read, the principal) runs as for any token.
   */
  override authenticate(req: Request, options?: object): void {
    const token = bearerFromHeader(req);
    const claims = token === null ? undefined : this.verified.get(token);
    if (claims === undefined) {
      super.authenticate(req, options);
      return;
    }
    this.principalOf(claims).then(
      (principal) => (principal ? this.success(principal) : this.fail(401)),
      (error: unknown) => this.error(error as Error),
    );
  }

  /** passport-jwt's callback, once it verified the token's signature and claims. */
  async validate(req: Request, claims: JwtClaims): Promise<Principal | false> {
    const principal = await this.principalOf(claims);
    const token = bearerFromHeader(req);
    if (principal && token !== null) this.verified.remember(token, claims);
    return principal;
  }

  private async principalOf(claims: JwtClaims): Promise<Principal | false> {
    if (!hasRequiredClaims(claims, TOKEN_TYPES.access)) return false;
    // The session and its user in one query (this runs on every request).
    const user = await this.sessions.userOfAccess(claims);
    if (!user) return false;
    return this.users.principalOf(user, 'jwt', { familyId: claims.fam ?? null });
  }
}
