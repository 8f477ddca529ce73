import { join } from 'node:path';
import type { EnvReader } from './env-reader.js';

export type DatabaseConfig =
  { type: 'sqlite'; path: string } | { type: 'postgres'; url: string; ssl: boolean };

/** Where the service keeps its data: the database, and the shared store of rate limits. */
export interface StorageConfig {
  database: DatabaseConfig;
  redisUrl: string | null;
}

/** PostgreSQL when DATABASE_URL is set, else a SQLite file in DATA_DIR. */
export function readStorageConfig(read: EnvReader, dataDir: string): StorageConfig {
  const { env } = read;
  return {
    database: env.DATABASE_URL
      ? {
          type: 'postgres',
          url: read.url('DATABASE_URL', ['postgres:', 'postgresql:']),
          ssl: read.bool('DATABASE_SSL', false),
        }
      : { type: 'sqlite', path: join(dataDir, env.SQLITE_FILE ?? 'configurator.sqlite') },
    redisUrl: env.REDIS_URL ? read.url('REDIS_URL', ['redis:', 'rediss:']) : null,
  };
}
