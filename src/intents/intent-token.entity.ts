import { Column, Entity, PrimaryColumn } from 'typeorm';

/** An issued intent token (its `jti`), kept so that it can be revoked before it expires. */
@Entity('intent_tokens')
export class IntentTokenEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'integer' })
  userId: number;

  @Column({ type: 'integer' })
  companyId: number;

  @Column({ type: Date })
  expiresAt: Date;

  @Column({ type: Date, nullable: true })
  revokedAt: Date | null;

  /** Set here, not by the database, so that SQLite keeps milliseconds too. */
  @Column({ type: Date })
  createdAt: Date = new Date();
}
