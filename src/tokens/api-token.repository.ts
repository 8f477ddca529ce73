import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { IsNull, LessThanOrEqual, MoreThan, type DataSource, type Repository } from 'typeorm';
import { ApiTokenEntity } from './api-token.entity.js';

export type NewApiTokenRow = Pick<
  ApiTokenEntity,
  'userId' | 'name' | 'tokenHash' | 'prefix' | 'expiresAt' | 'createdAt'
>;

/** The api_tokens table. A duplicate live name reaches the caller as a unique violation. */
@Injectable()
export class ApiTokenRepository {
  private readonly rows: Repository<ApiTokenEntity>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.rows = dataSource.getRepository(ApiTokenEntity);
  }

  /**
   * An expired token is dead but still holds its name in the partial unique index
   * (which cannot know the time): retire it so that the name can be reused.
   */
  async retireExpired(userId: number, name: string, now: Date): Promise<void> {
    await this.rows.update(
      { userId, name, revokedAt: IsNull(), expiresAt: LessThanOrEqual(now) },
      { revokedAt: now },
    );
  }

  async insert(row: NewApiTokenRow): Promise<ApiTokenEntity> {
    const token = this.rows.create({ ...row, lastUsedAt: null, revokedAt: null });
    await this.rows.insert(token);
    return token;
  }

  /** The user's live tokens (neither revoked nor expired), oldest first, with their count. */
  findLive(userId: number, offset: number, limit: number): Promise<[ApiTokenEntity[], number]> {
    const live = { userId, revokedAt: IsNull() };
    return this.rows.findAndCount({
      where: [
        { ...live, expiresAt: IsNull() },
        { ...live, expiresAt: MoreThan(new Date()) },
      ],
      order: { id: 'ASC' },
      skip: offset,
      take: limit,
    });
  }

  /** The unrevoked token with this secret hash (expiry is the caller's to check). */
  findUnrevokedByHash(tokenHash: string): Promise<ApiTokenEntity | null> {
    return this.rows.findOneBy({ tokenHash, revokedAt: IsNull() });
  }

  async touch(id: number, at: Date): Promise<void> {
    await this.rows.update({ id }, { lastUsedAt: at });
  }

  /** Revokes every live token of the user (a disabled user's). */
  async revokeAllOfUser(userId: number): Promise<void> {
    await this.rows.update({ userId, revokedAt: IsNull() }, { revokedAt: new Date() });
  }

  /** Revokes the user's live token; false when there is none with this id. */
  async revoke(userId: number, id: number): Promise<boolean> {
    const result = await this.rows.update(
      { id, userId, revokedAt: IsNull() },
      { revokedAt: new Date() },
    );
    return Boolean(result.affected);
  }
}
