import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A device token (OWASP "device cookies", adapted to an API): returned by a successful
 * login, presented by later logins of the same user to be exempt from the per-email
 * limit. Only its sha256 is stored; it grants nothing by itself (the password is still
 * checked).
 */
@Entity('device_tokens')
export class DeviceTokenEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  userId: number;

  /** sha256 of the token, hex. */
  @Column({ type: 'varchar', length: 64 })
  tokenHash: string;

  @Column({ type: Date })
  expiresAt: Date;

  /** Set here, not by the database, so that SQLite keeps milliseconds too. */
  @Column({ type: Date })
  createdAt: Date = new Date();
}
