import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { InjectRepository } from '@nestjs/typeorm';
import passportHttpBearer from 'passport-http-bearer';
import { IsNull, Repository } from 'typeorm';
import { ApiTokenEntity } from '../../tokens/api-token.entity.js';
import { API_TOKEN_PREFIX, hashApiToken } from '../../tokens/api-token-secret.js';
import type { Principal } from '../principal.js';
import { PrincipalLoader } from './principal-loader.js';

/** Only bump `last_used_at` this often, so a busy integration does not write on every call. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** `Authorization: Bearer cfg_…`: an API token, looked up by the hash of its secret. */
@Injectable()
export class ApiTokenStrategy extends PassportStrategy(passportHttpBearer.Strategy, 'api') {
  constructor(
    private readonly principals: PrincipalLoader,
    @InjectRepository(ApiTokenEntity) private readonly tokens: Repository<ApiTokenEntity>,
  ) {
    super();
  }

  async validate(secret: string): Promise<Principal | false> {
    if (!secret.startsWith(API_TOKEN_PREFIX)) return false;
    const token = await this.tokens.findOneBy({
      tokenHash: hashApiToken(secret),
      revokedAt: IsNull(),
    });
    if (!token || (token.expiresAt && token.expiresAt.getTime() <= Date.now())) return false;
    const now = new Date();
    if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      await this.tokens.update({ id: token.id }, { lastUsedAt: now });
    }
    return this.principals.load(token.userId, 'api', { tokenId: token.id });
  }
}
