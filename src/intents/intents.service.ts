import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { IsNull, Repository } from 'typeorm';
import { AccessService } from '../access/access.service.js';
import type { Principal } from '../auth/principal.js';
import { TokenIssuer } from '../auth/token-issuer.service.js';
import { ApiError } from '../common/errors/api-error.js';
import { AppConfig } from '../config/app-config.js';
import { isForeignKeyViolation } from '../database/db-errors.js';
import { IntentTokenEntity } from './intent-token.entity.js';

export interface IssuedIntent {
  intent: IntentTokenEntity;
  token: string;
}

/**
 * Intent tokens: short-lived JWTs that act as their user for one company only, so a
 * web shop front end never holds a long-lived credential. The row (keyed by the
 * token's `jti`) is what makes an intent revocable before it expires.
 */
@Injectable()
export class IntentsService {
  constructor(
    @InjectRepository(IntentTokenEntity) private readonly intents: Repository<IntentTokenEntity>,
    private readonly access: AccessService,
    private readonly issuer: TokenIssuer,
    private readonly config: AppConfig,
  ) {}

  async issue(
    principal: Principal,
    companyId: number,
    expiresInSeconds?: number,
  ): Promise<IssuedIntent> {
    // A company the caller may not see answers 404, exactly as if it did not exist.
    if (!(await this.access.canSeeCompany(principal, companyId))) throw companyNotFound();
    const ttl = expiresInSeconds ?? this.config.intent.defaultTtlSeconds;
    const now = new Date();
    const intent = this.intents.create({
      id: randomUUID(),
      userId: principal.userId,
      companyId,
      expiresAt: new Date(now.getTime() + ttl * 1000),
      revokedAt: null,
      createdAt: now,
    });
    try {
      await this.intents.insert(intent);
    } catch (error) {
      // The company was deleted between the check and the insert.
      if (isForeignKeyViolation(error)) throw companyNotFound();
      throw error;
    }
    const token = await this.issuer.intent(principal.userId, companyId, intent.id, ttl);
    return { intent, token };
  }

  /** Revokes one of the caller's intent tokens; anything else is a 404. */
  async revoke(userId: number, id: string): Promise<void> {
    const result = await this.intents.update(
      { id, userId, revokedAt: IsNull() },
      { revokedAt: new Date() },
    );
    if (!result.affected) throw ApiError.notFound('No such intent token');
  }
}

function companyNotFound(): ApiError {
  return ApiError.notFound('No company found', [
    { code: 'not_found', message: 'No company found', path: 'company_id' },
  ]);
}
