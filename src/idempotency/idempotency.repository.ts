import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { IsNull, LessThan, type DataSource, type EntityManager, type Repository } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { isUniqueViolation } from '../database/db-errors.js';
import { IdempotencyKeyEntity } from './idempotency-key.entity.js';

/** How long a key is remembered (docs/api.md: 24 h). */
export const KEY_RETENTION_MS = 24 * 3600 * 1000;
/**
 * The default of IDEMPOTENCY_ABANDONED_AFTER_MS. Keys are only ever written complete, in
 * the work's transaction (docs/adr/0155); a row without an answer was reserved by an
 * instance of an older release, and one that old was lost with it: a retry takes it over.
 */
export const ABANDONED_AFTER_MS = 5 * 60 * 1000;

/** What became of a key's earlier use. */
export type KeyLookup =
  | { kind: 'free' }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'in_flight' }
  | { kind: 'mismatch' };

/** A key the request being served will record with its work. */
export interface KeyUse {
  caller: string;
  key: string;
  fingerprint: string;
  status: number;
}

/**
 * Another request recorded the same key first (another instance, concurrently): the
 * transaction that tried to record it again is rolled back with everything it made.
 */
export class KeyTakenError extends Error {
  constructor() {
    super('The idempotency key was recorded by another request');
  }
}

/** The only code that touches the idempotency_keys table. */
@Injectable()
export class IdempotencyRepository {
  private readonly keys: Repository<IdempotencyKeyEntity>;
  private readonly abandonedAfterMs: number;

  constructor(@InjectDataSource() dataSource: DataSource, config: AppConfig) {
    this.keys = dataSource.getRepository(IdempotencyKeyEntity);
    this.abandonedAfterMs = config.idempotencyAbandonedAfterMs;
  }

  /** What an earlier use of (caller, key) left; expired and abandoned rows are dropped. */
  async find(caller: string, key: string, fingerprint: string): Promise<KeyLookup> {
    const existing = await this.keys.findOneBy({ caller, key });
    if (existing === null) return { kind: 'free' };
    const age = Date.now() - existing.createdAt.getTime();
    if (age > KEY_RETENTION_MS) {
      await this.keys.delete({ id: existing.id, createdAt: existing.createdAt });
      return { kind: 'free' };
    }
    if (existing.fingerprint !== fingerprint) return { kind: 'mismatch' };
    if (existing.completedAt !== null && existing.responseBody !== null) {
      const status = existing.responseStatus ?? 200;
      return { kind: 'replay', status, body: existing.responseBody };
    }
    if (age <= this.abandonedAfterMs) return { kind: 'in_flight' };
    // Compare-and-delete: of several retries, each finds the key free, and the unique
    // index lets one of them record it.
    await this.keys.delete({ id: existing.id, completedAt: IsNull() });
    return { kind: 'free' };
  }

  /**
   * Records the key with its answer inside the transaction of the work it answers. A
   * concurrent record of the same key (uncommitted) makes PostgreSQL wait for its
   * outcome: it committed, KeyTakenError; it rolled back, this one goes in.
   */
  async recordIn(manager: EntityManager, use: KeyUse, body: string): Promise<void> {
    try {
      await manager.insert(IdempotencyKeyEntity, this.row(use, body));
    } catch (error) {
      if (isUniqueViolation(error)) throw new KeyTakenError();
      throw error;
    }
  }

  /**
   * Records the key after work that stored nothing through a recorded transaction. A key
   * recorded meanwhile by another request stays as it is.
   */
  async record(use: KeyUse, body: string): Promise<void> {
    try {
      await this.keys.insert(this.row(use, body));
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }

  /** Forgets keys older than the retention; answers how many. */
  async deleteExpired(now = Date.now()): Promise<number> {
    const result = await this.keys.delete({
      createdAt: LessThan(new Date(now - KEY_RETENTION_MS)),
    });
    return result.affected ?? 0;
  }

  private row(use: KeyUse, body: string): IdempotencyKeyEntity {
    const now = new Date();
    return this.keys.create({
      caller: use.caller,
      key: use.key,
      fingerprint: use.fingerprint,
      responseStatus: use.status,
      responseBody: body,
      completedAt: now,
      createdAt: now,
    });
  }
}
