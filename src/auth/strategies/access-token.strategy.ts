import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { AppConfig } from '../../config/app-config.js';
import { TOKEN_TYPES, type JwtClaims } from '../jwt-claims.js';
import type { Principal } from '../principal.js';
import { JwtStrategyBase, jwtVerifyOptions } from './jwt-options.js';
import { PrincipalLoader } from './principal-loader.js';

/** `Authorization: Bearer <access JWT>` from /v1/login or /v1/refresh. */
@Injectable()
export class AccessTokenStrategy extends PassportStrategy(JwtStrategyBase, 'jwt') {
  constructor(
    config: AppConfig,
    private readonly principals: PrincipalLoader,
  ) {
    super(jwtVerifyOptions(config));
  }

  async validate(claims: JwtClaims): Promise<Principal | false> {
    if (claims.typ !== TOKEN_TYPES.access) return false;
    return this.principals.load(Number(claims.sub), 'jwt', { familyId: claims.fam ?? null });
  }
}
