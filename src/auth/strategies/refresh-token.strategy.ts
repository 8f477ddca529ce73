import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { AppConfig } from '../../config/app-config.js';
import { TOKEN_TYPES, type JwtClaims } from '../jwt-claims.js';
import type { Principal } from '../principal.js';
import { ExtractJwt, JwtStrategyBase, jwtVerifyOptions } from './jwt-options.js';
import { PrincipalLoader } from './principal-loader.js';

/**
 * A refresh token, read from the body `{refresh_token}`. This only proves the token is
 * genuine and unexpired; whether it is the family's current one (rotation, reuse
 * detection) is decided by the AuthService.
 */
@Injectable()
export class RefreshTokenStrategy extends PassportStrategy(JwtStrategyBase, 'refresh') {
  constructor(
    config: AppConfig,
    private readonly principals: PrincipalLoader,
  ) {
    super(jwtVerifyOptions(config, ExtractJwt.fromBodyField('refresh_token')));
  }

  async validate(claims: JwtClaims): Promise<Principal | false> {
    if (claims.typ !== TOKEN_TYPES.refresh || !claims.fam || !claims.jti) return false;
    return this.principals.load(Number(claims.sub), 'refresh', {
      familyId: claims.fam,
      tokenId: claims.jti,
    });
  }
}
