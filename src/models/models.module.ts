import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config.js';
import { CompiledModelCache } from '../engine/index.js';
import { CompanySupplierEntity } from '../suppliers/company-supplier.entity.js';
import { SupplierEntity } from '../suppliers/supplier.entity.js';
import { CompanyModelsController } from './company-models.controller.js';
import { CompanyModelsService } from './company-models.service.js';
import { ModelAccessService } from './model-access.service.js';
import { ModelAssetEntity } from './model-asset.entity.js';
import { ModelAssetsService } from './model-assets.service.js';
import { ModelBuilderService } from './model-builder.service.js';
import { ModelLockService } from './model-lock.service.js';
import { ModelVersionEntity } from './model-version.entity.js';
import { ModelEntity } from './model.entity.js';
import { ModelsController } from './models.controller.js';
import { ModelsService } from './models.service.js';
import { SupplierModelsController } from './supplier-models.controller.js';

/**
 * Models: upload (JSON, YAML, zip), immutable versions, the edit lock, assets, and the
 * compiled-model cache the cart lines evaluate against (ModelsService.loadCompiled).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      ModelEntity,
      ModelVersionEntity,
      ModelAssetEntity,
      SupplierEntity,
      CompanySupplierEntity,
    ]),
  ],
  controllers: [SupplierModelsController, ModelsController, CompanyModelsController],
  providers: [
    ModelsService,
    ModelBuilderService,
    ModelAccessService,
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
