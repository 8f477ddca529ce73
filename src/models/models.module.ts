import { Module } from '@nestjs/common';

/** Filled in by its feature work. */
@Module({})
export class ModelsModule {}
