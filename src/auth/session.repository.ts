import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { IsNull, Not, type DataSource, type Repository } from 'typeorm';
import { firstRow, fixedSql } from '../database/fixed-sql.js';
import type { UserIdentity } from '../users/users.service.js';
import { RefreshFamilyEntity } from './refresh-family.entity.js';

/** refresh_token_families: one row per login session. */
@Injectable()
export class SessionRepository {
  private readonly rows: Repository<RefreshFamilyEntity>;
  private readonly userOfLiveSql: string;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.rows = dataSource.getRepository(RefreshFamilyEntity);
    this.userOfLiveSql = fixedSql(
      dataSource,
      'SELECT "u"."id", "u"."email", "u"."role", "u"."disabled_at" FROM "refresh_token_families" "f" ' +
        'INNER JOIN "users" "u" ON "u"."id" = "f"."user_id" ' +
        'WHERE "f"."id" = $1 AND "f"."revoked_at" IS NULL',
    );
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
   * The user of a live (unrevoked) session, in one query: every request with an access
   * JWT asks. It reads the users table by name, without the password hash (an exception
   * to "features meet through services", like AccessRepository's; docs/adr/0037-hot-paths.md).
   * Fixed SQL, not the query builder: it runs on every request (database/fixed-sql.ts).
   */
  async userOfLive(id: string): Promise<UserIdentity | null> {
    const row = await firstRow<{
      id: number | string;
      email: string;
      role: UserIdentity['role'];
      disabled_at: unknown;
    }>(this.dataSource, this.userOfLiveSql, [id]);
    if (!row) return null;
    const disabled = row.disabled_at !== null && row.disabled_at !== undefined;
    return { id: Number(row.id), email: row.email, role: row.role, disabled };
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
