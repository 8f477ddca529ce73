import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, LessThanOrEqual, MoreThan, Repository } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { isUniqueViolation } from '../database/db-errors.js';
import { generateApiTokenSecret, hashApiToken } from './api-token-secret.js';
import { ApiTokenEntity } from './api-token.entity.js';

/** How much of the secret is kept in clear, to recognise a token in a list (`cfg_` + 8). */
const VISIBLE_PREFIX_LENGTH = 12;

export interface NewApiToken {
  token: ApiTokenEntity;
  /** The secret in clear: returned once, never stored. */
  secret: string;
}

/** API tokens: issue (secret shown once, sha256 stored), list, revoke. */
@Injectable()
export class TokensService {
  constructor(
    @InjectRepository(ApiTokenEntity) private readonly tokens: Repository<ApiTokenEntity>,
  ) {}

  async create(userId: number, name: string, expiresAt: Date | null): Promise<NewApiToken> {
    const now = new Date();
    // An expired token is dead but still holds its name in the partial unique index
    // (which cannot know the time): retire it so that the name can be reused.
    await this.tokens.update(
      { userId, name, revokedAt: IsNull(), expiresAt: LessThanOrEqual(now) },
      { revokedAt: now },
    );
    const secret = generateApiTokenSecret();
    const token = this.tokens.create({
      userId,
      name,
      tokenHash: hashApiToken(secret),
      prefix: secret.slice(0, VISIBLE_PREFIX_LENGTH),
      expiresAt,
      lastUsedAt: null,
      revokedAt: null,
      createdAt: now,
    });
    try {
      await this.tokens.insert(token);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw ApiError.conflict('You already have a token with that name', [
          { code: 'duplicate', message: 'You already have a token with that name', path: 'name' },
        ]);
      }
      throw error;
    }
    return { token, secret };
  }

  /** The caller's live tokens (neither revoked nor expired), oldest first. */
  async list(userId: number, offset: number, limit: number): Promise<[ApiTokenEntity[], number]> {
    const live = { userId, revokedAt: IsNull() };
    return this.tokens.findAndCount({
      where: [
        { ...live, expiresAt: IsNull() },
        { ...live, expiresAt: MoreThan(new Date()) },
      ],
      order: { id: 'ASC' },
      skip: offset,
      take: limit,
    });
  }

  /** Revokes one of the caller's tokens; another user's token is a 404, as if it did not exist. */
  async revoke(userId: number, id: number): Promise<void> {
    const result = await this.tokens.update(
      { id, userId, revokedAt: IsNull() },
      { revokedAt: new Date() },
    );
    if (!result.affected) throw ApiError.notFound('No such API token');
  }
}
