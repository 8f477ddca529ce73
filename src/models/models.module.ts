import { Module } from '@nestjs/common';
import { CompiledModels } from '../engine-runtime/compiled-models.service.js';
import { CompanyModelsController } from './company-models.controller.js';
import { CompanyModelsService } from './company-models.service.js';
import { ModelAssetsService } from './model-assets.service.js';
import { ModelBuilderService } from './model-builder.service.js';
import { ModelLockService } from './model-lock.service.js';
import { ModelRepository } from './model.repository.js';
import { ModelsController } from './models.controller.js';
import { ModelsService } from './models.service.js';
import { SupplierModelsController } from './supplier-models.controller.js';
import { AssetUrls } from '../engine-runtime/asset-urls.js';
import { SignedAssetsController } from './signed-assets.controller.js';
import { ModelVersionRepository } from './versions/model-version.repository.js';
import { ModelVersionsController } from './versions/model-versions.controller.js';
import { ModelVersionsService } from './versions/model-versions.service.js';

/**
 * Models: upload (JSON, YAML, zip), immutable versions, the edit lock, assets, and the
 * compiled models the cart lines evaluate against (CompiledModels: worker pool and cache,
 * reached through ModelsService.compiledVersion and compiledFor).
 */
@Module({
  controllers: [
    SupplierModelsController,
    ModelsController,
    ModelVersionsController,
    CompanyModelsController,
    SignedAssetsController,
  ],
  providers: [
    ModelsService,
    ModelRepository,
    ModelBuilderService,
    ModelLockService,
    ModelAssetsService,
    CompanyModelsService,
    CompiledModels,
    AssetUrls,
    ModelVersionsService,
    ModelVersionRepository,
  ],
  exports: [ModelsService, AssetUrls, ModelVersionsService],
})
export class ModelsModule {}
