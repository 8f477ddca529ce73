import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CompanySupplierEntity } from '../suppliers/company-supplier.entity.js';
import { SupplierEntity } from '../suppliers/supplier.entity.js';
import { CompiledModels } from './compiled-models.service.js';
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
 * compiled models the cart lines evaluate against (CompiledModels: worker pool and cache,
 * reached through ModelsService.loadCompiled).
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
    CompiledModels,
  ],
  exports: [ModelsService],
})
export class ModelsModule {}
