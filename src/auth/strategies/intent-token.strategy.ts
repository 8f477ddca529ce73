import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AccessService } from '../../access/access.service.js';
import { AppConfig } from '../../config/app-config.js';
import { IntentTokenEntity } from '../../intents/intent-token.entity.js';
import { TOKEN_TYPES, type JwtClaims } from '../jwt-claims.js';
import type { Principal } from '../principal.js';
import { JwtStrategyBase, jwtVerifyOptions } from './jwt-options.js';
import { PrincipalLoader } from './principal-loader.js';

/**
 * A short-lived intent JWT: its user, restricted to one company; revocable by its `jti`.
 * The user must still be allowed into that company (a member, or an admin).
 */
@Injectable()
export class IntentTokenStrategy extends PassportStrategy(JwtStrategyBase, 'intent') {
  constructor(
    config: AppConfig,
    private readonly principals: PrincipalLoader,
    @InjectRepository(IntentTokenEntity) private readonly intents: Repository<IntentTokenEntity>,
    private readonly access: AccessService,
  ) {
    super(jwtVerifyOptions(config));
  }

  async validate(claims: JwtClaims): Promise<Principal | false> {
    if (claims.typ !== TOKEN_TYPES.intent || !claims.jti || typeof claims.cid !== 'number')
      return false;
    const intent = await this.intents.findOneBy({ id: claims.jti });
    if (!intent || intent.revokedAt || intent.expiresAt.getTime() <= Date.now()) return false;
    if (intent.companyId !== claims.cid || String(intent.userId) !== claims.sub) return false;
    const principal = await this.principals.load(intent.userId, 'intent', {
      companyId: intent.companyId,
      tokenId: intent.id,
    });
    if (!principal) return false;
    const allowed = await this.access.isCompanyMember(principal, intent.companyId);
    return allowed ? principal : false;
  }
}
