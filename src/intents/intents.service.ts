import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AccessService } from '../access/access.service.js';
import { ApiError } from '../common/errors/api-error.js';
import { isUuid } from '../common/http/id-param.js';
import { AppConfig } from '../config/app-config.js';
import { isForeignKeyViolation } from '../database/db-errors.js';
import { TOKEN_TYPES, type JwtClaims } from '../jwt/jwt-claims.js';
import { TokenIssuer } from '../jwt/token-issuer.service.js';
import type { Principal } from '../principal/principal.js';
import { IntentDto } from './dto/intent.dto.js';
import { IntentTokenRepository } from './intent-token.repository.js';

/** Whose live intent a verified intent JWT is. */
export interface AuthenticatedIntent {
  userId: number;
  companyId: number;
  tokenId: string;
}

/**
 * Intent tokens: short-lived JWTs that act as their user for one company only, so a
 * web shop front end never holds a long-lived credential. The row (keyed by the
 * token's `jti`) is what makes an intent revocable before it expires.
 */
@Injectable()
export class IntentsService {
  constructor(
    private readonly intents: IntentTokenRepository,
    private readonly access: AccessService,
    private readonly issuer: TokenIssuer,
    private readonly config: AppConfig,
  ) {}

  async issue(
    principal: Principal,
    companyId: number,
    expiresInSeconds?: number,
  ): Promise<IntentDto> {
    // A company the caller may not see answers 404, exactly as if it did not exist.
    if (!(await this.access.canSeeCompany(principal, companyId))) throw companyNotFound();
    const ttl = expiresInSeconds ?? this.config.intent.defaultTtlSeconds;
    const now = new Date();
    try {
      const intent = await this.intents.insert({
        id: randomUUID(),
        userId: principal.userId,
        companyId,
        expiresAt: new Date(now.getTime() + ttl * 1000),
        createdAt: now,
      });
      const token = await this.issuer.intent(principal.userId, companyId, intent.id, ttl);
      return IntentDto.from(intent, token);
    } catch (error) {
      // The company was deleted between the check and the insert.
      if (isForeignKeyViolation(error)) throw companyNotFound();
      throw error;
    }
  }

  /**
   * Revokes one of the caller's intent tokens; anything else (not even a UUID) is a 404.
   * A UUID names its token in either case (ids are stored lower-case, as cart ids are read).
   */
  async revoke(principal: Principal, id: string): Promise<void> {
    if (!isUuid(id) || !(await this.intents.revoke(principal.userId, id.toLowerCase()))) {
      throw ApiError.notFound('No such intent token');
    }
  }

  /** Ends every intent token of a user at once (UserLifecycleService, when disabling). */
  revokeAllOfUser(userId: number): Promise<void> {
    return this.intents.revokeAllOfUser(userId);
  }

  async authenticate(claims: JwtClaims): Promise<AuthenticatedIntent | null> {
    if (claims.typ !== TOKEN_TYPES.intent || !claims.jti || typeof claims.cid !== 'number') {
      return null;
    }
    const intent = await this.intents.findById(claims.jti);
    if (!intent || intent.revokedAt || intent.expiresAt.getTime() <= Date.now()) return null;
    if (intent.companyId !== claims.cid || String(intent.userId) !== claims.sub) return null;
    return { userId: intent.userId, companyId: intent.companyId, tokenId: intent.id };
  }
}

function companyNotFound(): ApiError {
  return ApiError.notFound('No company found', [
    { code: 'not_found', message: 'No company found', path: 'company_id' },
  ]);
}
