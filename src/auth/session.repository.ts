import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { IsNull, Not, type DataSource, type Repository } from 'typeorm';
import { RefreshFamilyEntity } from './refresh-family.entity.js';

/** refresh_token_families: one row per login session. */
@Injectable()
export class SessionRepository {
  private readonly rows: Repository<RefreshFamilyEntity>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.rows = dataSource.getRepository(RefreshFamilyEntity);
  }

  async insert(
    row: Pick<RefreshFamilyEntity, 'id' | 'userId' | 'currentJti' | 'expiresAt'>,
  ): Promise<void> {
    await this.rows.insert(
      this.rows.create({ ...row, previousJti: null, rotatedAt: null, revokedAt: null }),
    );
  }

  findById(id: string): Promise<RefreshFamilyEntity | null> {
    return this.rows.findOneBy({ id });
  }

  /**
   * Compare-and-swap on the current jti: of two concurrent uses of one refresh token,
   * only one matches. False when the token was not the live family's current one.
   * The replaced jti and the time are kept for the grace window.
   */
  async rotate(
    id: string,
    presentedJti: string,
    nextJti: string,
    rotatedAt: Date,
  ): Promise<boolean> {
    const result = await this.rows.update(
      { id, currentJti: presentedJti, revokedAt: IsNull() },
      { currentJti: nextJti, previousJti: presentedJti, rotatedAt },
    );
    return Boolean(result.affected);
  }

  /** Every live session of a user (a disabled user's), but `keep` when given. */
  async revokeAllOfUser(userId: number, reason: string, keep: string | null = null): Promise<void> {
    await this.rows.update(
      { userId, revokedAt: IsNull(), ...(keep ? { id: Not(keep) } : {}) },
      { revokedAt: new Date(), revokedReason: reason },
    );
  }

  async revoke(id: string, reason: string): Promise<void> {
    await this.rows.update(
      { id, revokedAt: IsNull() },
      { revokedAt: new Date(), revokedReason: reason },
    );
  }
}
