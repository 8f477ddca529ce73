import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One `Idempotency-Key` of one caller (docs/api.md, "Retrying safely"): the request it was first
 * used with (`fingerprint`) and, once that request succeeded, its answer to replay.
 * `completedAt` null means the first request is still running. Unique (caller, key).
 */
@Entity('idempotency_keys')
export class IdempotencyKeyEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** `user:<id>`: the same person through any of their credentials. */
  @Column({ type: 'varchar', length: 64 })
  caller: string;

  @Column({ type: 'varchar', length: 255 })
  key: string;

  /** sha256 (hex) of method, path with query, and body. */
  @Column({ type: 'varchar', length: 64 })
  fingerprint: string;

  @Column({ type: 'integer', nullable: true })
  responseStatus: number | null;

  /** The handler's answer (`{data, message}`) as JSON; the envelope is rebuilt on replay. */
  @Column({ type: 'text', nullable: true })
  responseBody: string | null;

  @Column({ type: Date, nullable: true })
  completedAt: Date | null;

  @Column({ type: Date })
  createdAt: Date = new Date();
}
