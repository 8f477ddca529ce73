import { Global, Module, type DynamicModule, type InjectionToken } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { DatabasePool } from './database-pool.js';
import { DatabaseProbe } from './database-probe.js';
import { MigrationRunner } from './migration-runner.js';
import { TransactionRunner } from './transaction-runner.js';

/**
 * Connects to SQLite (DATA_DIR) or PostgreSQL (DATABASE_URL); MigrationRunner applies
 * pending migrations before the app serves anything. Provides TransactionRunner and
 * DatabaseProbe everywhere. The data source options (with every feature's entities) come
 * from the caller (with `inject`, what it needs: the config, the app's logger), so that
 * this folder depends on no feature.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot<Deps extends unknown[] = [AppConfig]>(
    options: (...deps: Deps) => DataSourceOptions,
    inject: InjectionToken[] = [AppConfig],
  ): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject,
          useFactory: (...deps: unknown[]) => ({
            ...options(...(deps as Deps)),
            // main.ts waits for the database before the app is built
            // (database-preflight.ts): a second retry loop here would only double the
            // time an unreachable database takes to be reported.
            retryAttempts: 0,
          }),
        }),
      ],
      providers: [MigrationRunner, TransactionRunner, DatabaseProbe, DatabasePool],
      exports: [TransactionRunner, DatabaseProbe, DatabasePool],
    };
  }
}
