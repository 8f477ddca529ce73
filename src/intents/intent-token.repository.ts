import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { IsNull, type DataSource, type Repository } from 'typeorm';
import { IntentTokenEntity } from './intent-token.entity.js';

/** The intent_tokens table: one row per issued intent JWT, keyed by its `jti`. */
@Injectable()
export class IntentTokenRepository {
  private readonly rows: Repository<IntentTokenEntity>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.rows = dataSource.getRepository(IntentTokenEntity);
  }

  /** A deleted company surfaces as a foreign-key violation. */
  async insert(row: Omit<IntentTokenEntity, 'revokedAt'>): Promise<IntentTokenEntity> {
    const intent = this.rows.create({ ...row, revokedAt: null });
    await this.rows.insert(intent);
    return intent;
  }

  findById(id: string): Promise<IntentTokenEntity | null> {
    return this.rows.findOneBy({ id });
  }

  /** Revokes every live intent token of the user (a disabled user's). */
  async revokeAllOfUser(userId: number): Promise<void> {
    await this.rows.update({ userId, revokedAt: IsNull() }, { revokedAt: new Date() });
  }

  /** Revokes the user's live intent; false when there is none with this id. */
  async revoke(userId: number, id: string): Promise<boolean> {
    const result = await this.rows.update(
      { id, userId, revokedAt: IsNull() },
      { revokedAt: new Date() },
    );
    return Boolean(result.affected);
  }
}
