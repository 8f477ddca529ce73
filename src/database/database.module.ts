import { Global, Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { AppLogger } from '../logging/app-logger.js';
import { TypeOrmPinoLogger } from './typeorm-pino-logger.js';
import { DatabaseProbe } from './database-probe.js';
import { MigrationRunner } from './migration-runner.js';
import { TransactionRunner } from './transaction-runner.js';

/**
 * Connects to SQLite (DATA_DIR) or PostgreSQL (DATABASE_URL); MigrationRunner applies
 * pending migrations before the app serves anything. Provides TransactionRunner and
 * DatabaseProbe everywhere. The data source options (with every feature's entities) come
 * from the caller, so that this folder depends on no feature. TypeORM's messages go to
 * the app's JSON log.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(options: (config: AppConfig) => DataSourceOptions): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig, AppLogger],
          useFactory: (config: AppConfig, logger: AppLogger) => ({
            ...options(config),
            logger: new TypeOrmPinoLogger(logger.pino),
            retryAttempts: config.isProduction ? 10 : 1,
            retryDelay: 2_000,
          }),
        }),
      ],
      providers: [MigrationRunner, TransactionRunner, DatabaseProbe],
      exports: [TransactionRunner, DatabaseProbe],
    };
  }
}
