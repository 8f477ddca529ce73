import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import type { ImportedModel, ModelAsset } from '../engine/source/index.js';
import { CompiledModels, type BuiltModel } from './compiled-models.service.js';
import { ModelAssetEntity } from './model-asset.entity.js';
import { ModelVersionEntity } from './model-version.entity.js';
import { ModelEntity } from './model.entity.js';
import type { ModelUpload } from './upload/read-model-upload.js';

export type { BuiltModel };

/**
 * The upload pipeline: bytes → document (+ fragments, assets) → imported models of the
 * same supplier → merged definition → compiled model. The work runs in a compile worker
 * (CompiledModels); this service supplies what needs the database (the imported models).
 * Every refusal carries every problem found (400) or names the limit crossed (413).
 */
@Injectable()
export class ModelBuilderService {
  constructor(
    private readonly compiledModels: CompiledModels,
    @InjectRepository(ModelEntity) private readonly models: Repository<ModelEntity>,
    @InjectRepository(ModelVersionEntity)
    private readonly versions: Repository<ModelVersionEntity>,
    @InjectRepository(ModelAssetEntity) private readonly assets: Repository<ModelAssetEntity>,
  ) {}

  build(upload: ModelUpload, supplierId: number): Promise<BuiltModel> {
    return this.compiledModels.build(upload, (ids) => this.loadImports(ids, supplierId));
  }

  /**
   * The current versions of the imported models, of this supplier only (others stay
   * unknown to mergeImports, which reports them), with the assets those versions ship.
   */
  private async loadImports(
    ids: number[],
    supplierId: number,
  ): Promise<{ models: ImportedModel[]; assets: Map<string, ModelAsset> }> {
    const models: ImportedModel[] = [];
    const assets = new Map<string, ModelAsset>();
    if (ids.length === 0) return { models, assets };
    const rows = await this.models.findBy({ id: In(ids), supplierId });
    const current = rows.map((row) => ({ modelId: row.id, versionNumber: row.versionNumber }));
    if (current.length === 0) return { models, assets };
    const [versions, files] = await Promise.all([
      this.versions.findBy(current),
      this.assets.findBy(current),
    ]);
    for (const version of versions) {
      models.push({
        modelId: version.modelId,
        versionNumber: version.versionNumber,
        document: version.definition,
      });
    }
    // In import order: the first import that ships a path provides it.
    for (const id of ids) {
      for (const file of files) {
        if (file.modelId !== id || assets.has(file.path)) continue;
        const bytes = Buffer.from(file.contentBase64, 'base64');
        assets.set(file.path, { bytes, contentType: file.contentType });
      }
    }
    return { models, assets };
  }
}
