import { Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { CompiledModelCache } from '../engine/index.js';
import { CompanyModelsController } from './company-models.controller.js';
import { CompanyModelsService } from './company-models.service.js';
import { ModelAssetsService } from './model-assets.service.js';
import { ModelBuilderService } from './model-builder.service.js';
import { ModelLockService } from './model-lock.service.js';
import { ModelRepository } from './model.repository.js';
import { ModelsController } from './models.controller.js';
import { ModelsService } from './models.service.js';
import { SupplierModelsController } from './supplier-models.controller.js';

/**
 * Models: upload (JSON, YAML, zip), immutable versions, the edit lock, assets, and the
 * compiled-model cache the cart lines evaluate against (ModelsService.loadCompiled).
 */
@Module({
  controllers: [SupplierModelsController, ModelsController, CompanyModelsController],
  providers: [
    ModelsService,
    ModelRepository,
    ModelBuilderService,
    ModelLockService,
    ModelAssetsService,
    CompanyModelsService,
    {
      provide: CompiledModelCache,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => new CompiledModelCache(config.compiledModelCacheSize),
    },
  ],
  exports: [ModelsService],
})
export class ModelsModule {}
