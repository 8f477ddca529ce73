import type { DataSourceOptions } from 'typeorm';
import type { DatabaseConfig } from './config/storage.config.js';
import { ENTITIES } from './entities.js';
import { MIGRATIONS } from './database/migrations/index.js';
import { SnakeNamingStrategy } from './database/snake-naming.strategy.js';
import { DeadlinePgClient } from './database/deadline-pg-client.js';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The one definition of the TypeORM data source, used by the app and by the
 * migration CLI (ormconfig.ts). Schema changes only ever come from migrations.
 */
export function buildDataSourceOptions(database: DatabaseConfig): DataSourceOptions {
  const { timeouts } = database;
  const common = {
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: false,
    synchronize: false,
    namingStrategy: new SnakeNamingStrategy(),
    logging: ['warn', 'migration'] as ('warn' | 'migration')[],
  };
  if (database.type === 'postgres') {
    return {
      ...common,
      type: 'postgres',
      url: database.url,
      ssl: database.ssl ? { rejectUnauthorized: true } : false,
      // pg's pool and client options (docs/adr/0151-database-timeouts-and-silent-connections.md).
      extra: {
        max: 10,
        Client: DeadlinePgClient,
        connectionTimeoutMillis: timeouts.acquireMs,
        idleTimeoutMillis: timeouts.idleMs,
        query_timeout: timeouts.queryMs,
        statement_timeout: timeouts.statementMs,
        idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
        keepAlive: true,
        keepAliveInitialDelayMillis: timeouts.keepAliveMs,
      },
    };
  }
  mkdirSync(dirname(database.path), { recursive: true });
  return {
    ...common,
    type: 'better-sqlite3',
    database: database.path,
    // WAL lets readers proceed during a write; foreign keys are off by default in SQLite.
    // The busy timeout is SQLite's wait for a connection: how long a write waits for the
    // file's lock held by another process (the CLI) before failing (503).
    prepareDatabase: (db: { exec: (sql: string) => unknown }) => {
      db.exec(
        `PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = ${timeouts.acquireMs};`,
      );
    },
  };
}
