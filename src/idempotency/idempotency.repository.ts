import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { IsNull, LessThan, type DataSource, type Repository } from 'typeorm';
import { isUniqueViolation } from '../database/db-errors.js';
import { IdempotencyKeyEntity } from './idempotency-key.entity.js';

/** How long a key is remembered (docs/api.md: 24 h). */
export const KEY_RETENTION_MS = 24 * 3600 * 1000;
/**
 * A first request still "running" after this long was lost with its instance (killed,
 * not shut down): a retry may take the key over instead of getting 409 for 24 h.
 */
export const ABANDONED_AFTER_MS = 5 * 60 * 1000;

export type Claim =
  | { kind: 'claimed'; id: number }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'in_flight' }
  | { kind: 'mismatch' };

/** The only code that touches the idempotency_keys table. */
@Injectable()
export class IdempotencyRepository {
  private readonly keys: Repository<IdempotencyKeyEntity>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.keys = dataSource.getRepository(IdempotencyKeyEntity);
  }

  /**
   * Takes the key for a new request, or says what became of its first use. The unique
   * index on (caller, key) decides between racing requests, on every instance.
   */
  async claim(caller: string, key: string, fingerprint: string): Promise<Claim> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const inserted = await this.insert(caller, key, fingerprint);
      if (inserted !== null) return { kind: 'claimed', id: inserted };
      const existing = await this.keys.findOneBy({ caller, key });
      if (existing === null) continue; // released or expired meanwhile: try again
      const age = Date.now() - existing.createdAt.getTime();
      if (age > KEY_RETENTION_MS) {
        await this.keys.delete({ id: existing.id, createdAt: existing.createdAt });
        continue;
      }
      if (existing.fingerprint !== fingerprint) return { kind: 'mismatch' };
      if (existing.completedAt !== null && existing.responseBody !== null) {
        return {
          kind: 'replay',
          status: existing.responseStatus ?? 200,
          body: existing.responseBody,
        };
      }
      if (age > ABANDONED_AFTER_MS && (await this.takeOver(existing))) {
        return { kind: 'claimed', id: existing.id };
      }
      return { kind: 'in_flight' };
    }
    return { kind: 'in_flight' };
  }

  /** Records the answer to replay. */
  async complete(id: number, status: number, body: string): Promise<void> {
    await this.keys.update(
      { id },
      { responseStatus: status, responseBody: body, completedAt: new Date() },
    );
  }

  /** The first request failed: nothing was created, so a retry runs again. */
  async release(id: number): Promise<void> {
    await this.keys.delete({ id, completedAt: IsNull() });
  }

  /** Forgets keys older than the retention; answers how many. */
  async deleteExpired(now = Date.now()): Promise<number> {
    const result = await this.keys.delete({
      createdAt: LessThan(new Date(now - KEY_RETENTION_MS)),
    });
    return result.affected ?? 0;
  }

  private async insert(caller: string, key: string, fingerprint: string): Promise<number | null> {
    try {
      const row = this.keys.create({
        caller,
        key,
        fingerprint,
        responseStatus: null,
        responseBody: null,
        completedAt: null,
      });
      await this.keys.insert(row);
      return row.id;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  /** Compare-and-swap on created_at: of several retries, one takes the abandoned key. */
  private async takeOver(existing: IdempotencyKeyEntity): Promise<boolean> {
    const result = await this.keys.update(
      { id: existing.id, createdAt: existing.createdAt, completedAt: IsNull() },
      { createdAt: new Date() },
    );
    return (result.affected ?? 0) === 1;
  }
}
