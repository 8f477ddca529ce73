import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { UserRole } from '../principal/principal.js';

export type { UserRole };

@Entity('users')
export class UserEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** Stored lower-cased; unique. */
  @Column({ type: 'varchar', length: 320 })
  email: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  name: string | null;

  /** argon2id hash (PHC string). Never leaves the service. */
  @Column({ type: 'varchar', length: 255 })
  passwordHash: string;

  @Column({ type: 'varchar', length: 16 })
  role: UserRole;

  /** Set by an admin: the user can no longer log in or use any token. */
  @Column({ type: Date, nullable: true })
  disabledAt: Date | null;

  /** Set here, not by the database, so that SQLite keeps milliseconds too. */
  @Column({ type: Date })
  createdAt: Date = new Date();
}
