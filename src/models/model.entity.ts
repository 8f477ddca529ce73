import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A supplier's configurable product; its definitions live in immutable versions. */
@Entity('models')
export class ModelEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  supplierId: number;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  /** `general.code`: a stable key within the supplier. */
  @Column({ type: 'varchar', length: 100, nullable: true })
  code: string | null;

  /** The current version's `general` section (for lists without loading definitions). */
  @Column({ type: 'simple-json', nullable: true })
  general: Record<string, unknown> | null;

  /** The newest version; versions are numbered from 1. */
  @Column({ type: 'integer' })
  versionNumber: number;

  @Column({ type: 'integer', nullable: true })
  lockedById: number | null;

  @Column({ type: Date, nullable: true })
  lockedAt: Date | null;

  /** Set here, not by the database, so that SQLite keeps milliseconds too. */
  @Column({ type: Date })
  createdAt: Date = new Date();

  /** Set by POST /v1/models/{id}/retire: no new cart lines; stored lines stay readable. */
  @Column({ type: Date, nullable: true })
  retiredAt: Date | null = null;

  /** Null until a second version is stored. */
  @Column({ type: Date, nullable: true })
  updatedAt: Date | null;
}
