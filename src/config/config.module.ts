import { Global, Module } from '@nestjs/common';
import { AppConfig } from './app-config.js';

/** Provides the validated AppConfig everywhere; tests override it with their own instance. */
@Global()
@Module({
  providers: [{ provide: AppConfig, useFactory: () => new AppConfig() }],
  exports: [AppConfig],
})
export class ConfigModule {}
