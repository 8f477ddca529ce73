import { Injectable } from '@nestjs/common';
import { Page } from '../common/envelope/envelope.js';
import { ApiError } from '../common/errors/api-error.js';
import type { PageQueryDto } from '../common/pagination/page-query.dto.js';
import { isUniqueViolation } from '../database/db-errors.js';
import type { Principal } from '../principal/principal.js';
import { API_TOKEN_PREFIX, generateApiTokenSecret, hashApiToken } from './api-token-secret.js';
import { ApiTokenRepository } from './api-token.repository.js';
import { ApiTokenDto, CreatedApiTokenDto } from './dto/api-token.dto.js';

/** How much of the secret is kept in clear, to recognise a token in a list (`cfg_` + 8). */
const VISIBLE_PREFIX_LENGTH = 12;

/** Only bump `last_used_at` this often, so a busy integration does not write on every call. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** Whose token a presented secret is. */
export interface AuthenticatedApiToken {
  userId: number;
  tokenId: number;
}

/**
 * API tokens: issue (secret shown once, sha256 stored), list, revoke, and authenticate a
 * presented secret. A caller only ever sees and revokes their own tokens.
 */
@Injectable()
export class TokensService {
  constructor(private readonly tokens: ApiTokenRepository) {}

  async create(
    principal: Principal,
    name: string,
    expiresAt: Date | null,
  ): Promise<CreatedApiTokenDto> {
    const now = new Date();
    const userId = principal.userId;
    await this.tokens.retireExpired(userId, name, now);
    const secret = generateApiTokenSecret();
    try {
      const token = await this.tokens.insert({
        userId,
        name,
        tokenHash: hashApiToken(secret),
        prefix: secret.slice(0, VISIBLE_PREFIX_LENGTH),
        expiresAt,
        createdAt: now,
      });
      return CreatedApiTokenDto.withSecret(token, secret);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw ApiError.conflict('You already have a token with that name', [
          { code: 'duplicate', message: 'You already have a token with that name', path: 'name' },
        ]);
      }
      throw error;
    }
  }

  /** The caller's live tokens (neither revoked nor expired), oldest first. */
  async list(principal: Principal, query: PageQueryDto): Promise<Page<ApiTokenDto>> {
    const [rows, total] = await this.tokens.findLive(
      principal.userId,
      query.offset,
      query.per_page,
    );
    return new Page(rows.map(ApiTokenDto.from), query.page, query.per_page, total);
  }

  /** Revokes one of the caller's tokens; another user's token is a 404, as if it did not exist. */
  async revoke(principal: Principal, id: number): Promise<void> {
    if (!(await this.tokens.revoke(principal.userId, id))) {
      throw ApiError.notFound('No such API token');
    }
  }

  /** `cfg_…` → its live token (null when unknown, revoked or expired); notes its use. */
  /** Ends every API token of a user at once (UserLifecycleService, when disabling). */
  revokeAllOfUser(userId: number): Promise<void> {
    return this.tokens.revokeAllOfUser(userId);
  }

  async authenticate(secret: string): Promise<AuthenticatedApiToken | null> {
    if (!secret.startsWith(API_TOKEN_PREFIX)) return null;
    const token = await this.tokens.findUnrevokedByHash(hashApiToken(secret));
    if (!token || (token.expiresAt && token.expiresAt.getTime() <= Date.now())) return null;
    const now = new Date();
    if (!token.lastUsedAt || now.getTime() - token.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      await this.tokens.touch(token.id, now);
    }
    return { userId: token.userId, tokenId: token.id };
  }
}
