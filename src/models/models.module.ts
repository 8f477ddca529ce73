import { Module } from '@nestjs/common';
import { EngineRuntimeModule } from '../engine-runtime/engine-runtime.module.js';
import { CompanyModelsController } from './company-models.controller.js';
import { CompanyModelsService } from './company-models.service.js';
import { ModelAssetsService } from './model-assets.service.js';
import { ModelBuilderService } from './model-builder.service.js';
import { ModelLockService } from './model-lock.service.js';
import { ModelRepository } from './model.repository.js';
import { ModelsController } from './models.controller.js';
import { ModelsService } from './models.service.js';
import { SupplierModelsController } from './supplier-models.controller.js';
import { ModelStoreModule } from './model-store.module.js';
import { SignedAssetsController } from './signed-assets.controller.js';
import { ModelVersionRepository } from './versions/model-version.repository.js';
import { ModelVersionsController } from './versions/model-versions.controller.js';
import { ModelVersionsService } from './versions/model-versions.service.js';

/** The engine runtime, reading stored versions through the models' repository. */
const engineRuntime = EngineRuntimeModule.register({
  imports: [ModelStoreModule],
  storedVersions: ModelRepository,
});

/**
 * Models: upload (JSON, YAML, zip), immutable versions, the edit lock and assets. Engine
 * work goes to the engine runtime (src/engine-runtime), which this module registers and
 * exports to the cart lines.
 */
@Module({
  imports: [ModelStoreModule, engineRuntime],
  controllers: [
    SupplierModelsController,
    ModelsController,
    ModelVersionsController,
    CompanyModelsController,
    SignedAssetsController,
  ],
  providers: [
    ModelsService,
    ModelBuilderService,
    ModelLockService,
    ModelAssetsService,
    CompanyModelsService,
    ModelVersionsService,
    ModelVersionRepository,
  ],
  exports: [ModelsService, ModelVersionsService, engineRuntime],
})
export class ModelsModule {}
