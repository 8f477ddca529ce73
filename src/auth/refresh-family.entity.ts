import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * One login session: every refresh token minted from a login shares the family.
 * Only the newest token id (`currentJti`) may be exchanged; presenting an older one
 * is reuse, and revokes the family.
 */
@Entity('refresh_token_families')
export class RefreshFamilyEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'integer' })
  userId: number;

  @Column({ type: 'varchar', length: 36 })
  currentJti: string;

  /** The jti `currentJti` replaced, still answered within the grace window. */
  @Column({ type: 'varchar', length: 36, nullable: true })
  previousJti: string | null;

  /** When `currentJti` was issued by a rotation: the grace window and the pair's `iat`. */
  @Column({ type: Date, nullable: true })
  rotatedAt: Date | null;

  @Column({ type: Date })
  expiresAt: Date;

  @Column({ type: Date, nullable: true })
  revokedAt: Date | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  revokedReason: string | null;

  /** Set here, not by the database, so that SQLite keeps milliseconds too. */
  @Column({ type: Date })
  createdAt: Date = new Date();
}
