import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { AppConfig } from '../../config/app-config.js';
import { hasRequiredClaims, TOKEN_TYPES, type JwtClaims } from '../../jwt/jwt-claims.js';
import type { Principal } from '../../principal/principal.js';
import { UsersService } from '../../users/users.service.js';
import { refreshTokenFromBody } from './credential-extractors.js';
import { JwtStrategyBase, jwtVerifyOptions } from './jwt-options.js';

/**
 * A refresh token, read from the body `{refresh_token}`. This only proves the token is
 * genuine and unexpired; whether it is the family's current one (rotation, reuse
 * detection) is decided by the SessionsService.
 */
@Injectable()
export class RefreshTokenStrategy extends PassportStrategy(JwtStrategyBase, 'refresh') {
  constructor(
    config: AppConfig,
    private readonly users: UsersService,
  ) {
    super(jwtVerifyOptions(config, refreshTokenFromBody));
  }

  async validate(claims: JwtClaims): Promise<Principal | false> {
    if (!hasRequiredClaims(claims, TOKEN_TYPES.refresh)) return false;
    if (!claims.fam || !claims.jti) return false;
    return this.users.principalFor(Number(claims.sub), 'refresh', {
      familyId: claims.fam,
      tokenId: claims.jti,
    });
  }
}
