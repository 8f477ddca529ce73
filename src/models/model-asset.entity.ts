import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { MAX_PATH_LENGTH } from '../engine/index.js';

/** An image shipped in a model version's zip, served under /v1/models/{id}/assets/{path}. */
@Entity('model_assets')
export class ModelAssetEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  modelId: number;

  @Column({ type: 'integer' })
  versionNumber: number;

  /** The engine refuses longer paths at upload (the column's length is that limit). */
  @Column({ type: 'varchar', length: MAX_PATH_LENGTH })
  path: string;

  @Column({ type: 'varchar', length: 100 })
  contentType: string;

  /** SHA-256 of the content (hex): its bytes' key in `asset_chunks`, and its ETag. */
  @Column({ type: 'varchar', length: 64 })
  sha256: string;

  @Column({ type: 'integer' })
  size: number;
}
