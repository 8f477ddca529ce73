import { type DynamicModule, Module, type ModuleMetadata, type Type } from '@nestjs/common';
import { AssetUrls } from './asset-urls.js';
import { CompiledModels } from './compiled-models.service.js';
import { STORED_VERSIONS, type StoredVersions } from './stored-versions.port.js';

/** Where the runtime reads stored versions: a provider of the StoredVersions port and its module. */
export interface EngineRuntimeOptions {
  imports: NonNullable<ModuleMetadata['imports']>;
  storedVersions: Type<StoredVersions>;
}

/**
 * The engine runtime (docs/adr/0181-engine-runtime-module.md): worker pools, fair queues,
 * the workers' tasks and the compiled-model cache, behind CompiledModels; AssetUrls signs
 * what the workers' answers link to. Registered once, by the models feature, with the
 * port it reads stored versions through.
 */
@Module({})
export class EngineRuntimeModule {
  static register(options: EngineRuntimeOptions): DynamicModule {
    return {
      module: EngineRuntimeModule,
      imports: options.imports,
      providers: [
        CompiledModels,
        AssetUrls,
        { provide: STORED_VERSIONS, useExisting: options.storedVersions },
      ],
      exports: [CompiledModels, AssetUrls],
    };
  }
}
