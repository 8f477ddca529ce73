import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config.js';
import { AppLogger } from '../logging/app-logger.js';
import { TypeOrmPinoLogger } from '../logging/typeorm-logger.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { MigrationRunner } from './migration-runner.js';
import { TransactionRunner } from './transaction-runner.js';

/**
 * Connects to SQLite (DATA_DIR) or PostgreSQL (DATABASE_URL); MigrationRunner applies
 * pending migrations before the app serves anything. Provides TransactionRunner everywhere.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig, AppLogger],
      useFactory: (config: AppConfig, logger: AppLogger) => ({
        ...buildDataSourceOptions(config.database),
        logger: new TypeOrmPinoLogger(logger.pino),
        retryAttempts: config.isProduction ? 10 : 1,
        retryDelay: 2_000,
      }),
    }),
  ],
  providers: [MigrationRunner, TransactionRunner],
  exports: [TransactionRunner],
})
export class DatabaseModule {}
