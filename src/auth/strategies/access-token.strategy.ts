import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { AppConfig } from '../../config/app-config.js';
import { hasRequiredClaims, TOKEN_TYPES, type JwtClaims } from '../../jwt/jwt-claims.js';
import type { Principal } from '../../principal/principal.js';
import { UsersService } from '../../users/users.service.js';
import { SessionsService } from '../sessions.service.js';
import { authenticatedByAdmission, JwtStrategyBase, jwtVerifyOptions } from './jwt-options.js';

/** `Authorization: Bearer <access JWT>` from /v1/login or /v1/refresh, of a live session. */
@Injectable()
export class AccessTokenStrategy extends PassportStrategy(JwtStrategyBase, 'jwt') {
  constructor(
    config: AppConfig,
    private readonly sessions: SessionsService,
    private readonly users: UsersService,
  ) {
    super(jwtVerifyOptions(config));
  }

  /**
   * Passport calls this on a copy of the strategy made for the request (it carries
   * success/fail/error). A token admission verified skips passport-jwt's verification;
   * the session read and the principal run as for any token.
   */
  override authenticate(req: Request, options?: object): void {
    if (!authenticatedByAdmission(this, req, (claims) => this.validate(claims))) {
      super.authenticate(req, options);
    }
  }

  /** From admission's claims, or passport-jwt's once it verified the token itself. */
  async validate(claims: JwtClaims): Promise<Principal | false> {
    if (!hasRequiredClaims(claims, TOKEN_TYPES.access)) return false;
    // The session and its user in one query (this runs on every request).
    const user = await this.sessions.userOfAccess(claims);
    if (!user) return false;
    return this.users.principalOf(user, 'jwt', { familyId: claims.fam ?? null });
  }
}
