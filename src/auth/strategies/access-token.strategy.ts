import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AppConfig } from '../../config/app-config.js';
import { TOKEN_TYPES, type JwtClaims } from '../jwt-claims.js';
import type { Principal } from '../principal.js';
import { RefreshFamilyEntity } from '../refresh-family.entity.js';
import { JwtStrategyBase, jwtVerifyOptions } from './jwt-options.js';
import { PrincipalLoader } from './principal-loader.js';

/**
 * `Authorization: Bearer <access JWT>` from /v1/login or /v1/refresh. Its session
 * (refresh family) must still be live, so that logout and reuse detection end the
 * access token at once rather than when it expires.
 */
@Injectable()
export class AccessTokenStrategy extends PassportStrategy(JwtStrategyBase, 'jwt') {
  constructor(
    config: AppConfig,
    private readonly principals: PrincipalLoader,
    @InjectRepository(RefreshFamilyEntity)
    private readonly families: Repository<RefreshFamilyEntity>,
  ) {
    super(jwtVerifyOptions(config));
  }

  async validate(claims: JwtClaims): Promise<Principal | false> {
    if (claims.typ !== TOKEN_TYPES.access || !claims.fam) return false;
    const family = await this.families.findOneBy({ id: claims.fam });
    if (!family || family.revokedAt || String(family.userId) !== claims.sub) return false;
    return this.principals.load(Number(claims.sub), 'jwt', { familyId: claims.fam ?? null });
  }
}
