import { Module } from '@nestjs/common';
import { ModelRepository } from './model.repository.js';

/** The models' repository on its own, so that the engine runtime can read versions through it. */
@Module({ providers: [ModelRepository], exports: [ModelRepository] })
export class ModelStoreModule {}
