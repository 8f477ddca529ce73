import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import type { Request } from 'express';
import { AccessService } from '../../access/access.service.js';
import { AppConfig } from '../../config/app-config.js';
import { IntentsService } from '../../intents/intents.service.js';
import { hasRequiredClaims, TOKEN_TYPES, type JwtClaims } from '../../jwt/jwt-claims.js';
import type { Principal } from '../../principal/principal.js';
import { UsersService } from '../../users/users.service.js';
import { authenticatedByAdmission, JwtStrategyBase, jwtVerifyOptions } from './jwt-options.js';

/**
 * A short-lived intent JWT: its user, restricted to one company; revocable by its `jti`.
 * The user must still be allowed into that company (a member, or an admin).
 */
@Injectable()
export class IntentTokenStrategy extends PassportStrategy(JwtStrategyBase, 'intent') {
  constructor(
    config: AppConfig,
    private readonly intents: IntentsService,
    private readonly users: UsersService,
    private readonly access: AccessService,
  ) {
    super(jwtVerifyOptions(config));
  }

  /** A token admission verified skips passport-jwt's verification (docs/adr/0203). */
  override authenticate(req: Request, options?: object): void {
    if (!authenticatedByAdmission(this, req, (claims) => this.validate(claims))) {
      super.authenticate(req, options);
    }
  }

  async validate(claims: JwtClaims): Promise<Principal | false> {
    if (!hasRequiredClaims(claims, TOKEN_TYPES.intent)) return false;
    const intent = await this.intents.authenticate(claims);
    if (!intent) return false;
    const principal = await this.users.principalFor(intent.userId, 'intent', {
      companyId: intent.companyId,
      tokenId: intent.tokenId,
    });
    if (!principal) return false;
    return (await this.access.isCompanyMember(principal, intent.companyId)) ? principal : false;
  }
}
