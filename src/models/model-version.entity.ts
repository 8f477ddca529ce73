import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One immutable version of a model. Its merged definition (deflated JSON) and compiled
 * consistency form are binary columns read and written by version-bytes.repository.ts.
 */
@Entity('model_versions')
export class ModelVersionEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  modelId: number;

  @Column({ type: 'integer' })
  versionNumber: number;

  /** json, yaml or zip: how it was uploaded. */
  @Column({ type: 'varchar', length: 8 })
  sourceFormat: string;

  @Column({ type: 'integer', nullable: true })
  createdById: number | null;

  /** Set here, not by the database, so that SQLite keeps milliseconds too. */
  @Column({ type: Date })
  createdAt: Date = new Date();
}
