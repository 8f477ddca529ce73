import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** An image shipped in a model version's zip, served under /v1/models/{id}/assets/{path}. */
@Entity('model_assets')
export class ModelAssetEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  modelId: number;

  @Column({ type: 'integer' })
  versionNumber: number;

  @Column({ type: 'varchar', length: 500 })
  path: string;

  @Column({ type: 'varchar', length: 100 })
  contentType: string;

  /** Base64: one text column type works on SQLite and PostgreSQL alike. */
  @Column({ type: 'text' })
  contentBase64: string;

  @Column({ type: 'integer' })
  size: number;
}
