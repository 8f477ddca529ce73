import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LessThan, type DataSource, type Repository } from 'typeorm';
import { DeviceTokenEntity } from './device-token.entity.js';

/** device_tokens: the sha256 of each device token, per user. */
@Injectable()
export class DeviceTokenRepository {
  private readonly rows: Repository<DeviceTokenEntity>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.rows = dataSource.getRepository(DeviceTokenEntity);
  }

  /** The live (unexpired) token with this hash, or null. */
  async findLive(tokenHash: string, now: Date): Promise<DeviceTokenEntity | null> {
    const row = await this.rows.findOneBy({ tokenHash });
    return row && row.expiresAt > now ? row : null;
  }

  async insert(userId: number, tokenHash: string, expiresAt: Date): Promise<void> {
    await this.rows.insert(this.rows.create({ userId, tokenHash, expiresAt }));
  }

  async delete(id: number): Promise<void> {
    await this.rows.delete({ id });
  }

  /** Drops the user's expired tokens and all but the newest `keep`. */
  async prune(userId: number, keep: number, now: Date): Promise<void> {
    await this.rows.delete({ userId, expiresAt: LessThan(now) });
    const stale = await this.rows.find({
      select: { id: true },
      where: { userId },
      order: { id: 'DESC' },
      skip: keep,
    });
    if (stale.length > 0) await this.rows.delete(stale.map((row) => row.id));
  }
}
