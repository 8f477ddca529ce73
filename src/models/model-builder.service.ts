import { Injectable } from '@nestjs/common';
import type { VersionAsset } from './version-writes.repository.js';
import {
  CompiledModels,
  type BuiltModel,
  type LoadedImports,
} from '../engine-runtime/compiled-models.service.js';
import { ModelRepository } from './model.repository.js';
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
    private readonly models: ModelRepository,
  ) {}

  build(upload: ModelUpload, supplierId: number): Promise<BuiltModel> {
    return this.compiledModels.build(upload, supplierId, (ids) =>
      this.loadImports(ids, supplierId),
    );
  }

  /**
   * The current versions of the imported models, of this supplier only (others stay
   * unknown to mergeImports, which reports them), with the assets those versions ship.
   */
  private async loadImports(ids: number[], supplierId: number): Promise<LoadedImports> {
    const assets = new Map<string, VersionAsset>();
    const { versions: models, assets: files } = await this.models.currentVersionsOf(
      ids,
      supplierId,
    );
    // In import order: the first import that ships a path provides it.
    for (const id of ids) {
      for (const file of files) {
        if (file.modelId !== id || assets.has(file.path)) continue;
        // Their bytes are stored already: the new version's rows name them by hash.
        const { contentType, sha256, size } = file;
        assets.set(file.path, { contentType, sha256, size });
      }
    }
    return { models, assets };
  }
}
