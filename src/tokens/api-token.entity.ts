import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A long-lived integration credential. Only the sha256 of the secret is stored. */
@Entity('api_tokens')
export class ApiTokenEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  userId: number;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 64 })
  tokenHash: string;

  /** The first characters of the secret, to recognise a token in a list. */
  @Column({ type: 'varchar', length: 16 })
  prefix: string;

  @Column({ type: Date, nullable: true })
  expiresAt: Date | null;

  @Column({ type: Date, nullable: true })
  lastUsedAt: Date | null;

  @Column({ type: Date, nullable: true })
  revokedAt: Date | null;

  /** Set here, not by the database, so that SQLite keeps milliseconds too. */
  @Column({ type: Date })
  createdAt: Date = new Date();
}
