import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { TransactionRunner } from './transaction-runner.js';

/**
 * Connects to SQLite (DATA_DIR) or PostgreSQL (DATABASE_URL) and runs pending
 * migrations before the app serves anything. Provides TransactionRunner everywhere.
 */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        ...buildDataSourceOptions(config.database),
        migrationsRun: true,
        migrationsTransactionMode: 'each' as const,
        retryAttempts: config.isProduction ? 10 : 1,
        retryDelay: 2_000,
      }),
    }),
  ],
  providers: [TransactionRunner],
  exports: [TransactionRunner],
})
export class DatabaseModule {}
