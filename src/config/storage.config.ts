import { join } from 'node:path';
import type { EnvReader } from './env-reader.js';

/**
 * How long the database may take (docs/adr/0151-database-timeouts-and-silent-connections.md):
 * an instance whose connections went silent must fail fast and recover, never hang.
 */
export interface DatabaseTimeouts {
  /** PostgreSQL `statement_timeout`: the server cancels a statement running longer. */
  statementMs: number;
  /**
   * The client's own deadline for an answer (`query_timeout`): a little past the server's,
   * for connections that went silent (the server's cancel never arrives); the connection
   * is then closed, not reused.
   */
  queryMs: number;
  /** PostgreSQL `idle_in_transaction_session_timeout`: a transaction left open holds no lock longer. */
  idleInTransactionMs: number;
  /** Waiting for a connection, new (connect) or from the pool; SQLite's busy timeout. */
  acquireMs: number;
  /** Unused pool connections are closed after this long (they may have gone silent meanwhile). */
  idleMs: number;
  /** TCP keepalive starts probing an idle connection after this long. */
  keepAliveMs: number;
}

export type DatabaseConfig = (
  { type: 'sqlite'; path: string } | { type: 'postgres'; url: string; ssl: boolean }
) & { timeouts: DatabaseTimeouts };

/** Where the service keeps its data: the database, and the shared store of rate limits. */
export interface StorageConfig {
  database: DatabaseConfig;
  redisUrl: string | null;
}

/** PostgreSQL when DATABASE_URL is set, else a SQLite file in DATA_DIR. */
export function readStorageConfig(read: EnvReader, dataDir: string): StorageConfig {
  const { env } = read;
  const timeouts = readDatabaseTimeouts(read);
  return {
    database: env.DATABASE_URL
      ? {
          type: 'postgres',
          url: read.url('DATABASE_URL', ['postgres:', 'postgresql:']),
          ssl: read.bool('DATABASE_SSL', false),
          timeouts,
        }
      : {
          type: 'sqlite',
          path: join(dataDir, env.SQLITE_FILE ?? 'configurator.sqlite'),
          timeouts,
        },
    redisUrl: env.REDIS_URL ? read.url('REDIS_URL', ['redis:', 'rediss:']) : null,
  };
}

function readDatabaseTimeouts(read: EnvReader): DatabaseTimeouts {
  const statementMs = read.int('DATABASE_STATEMENT_TIMEOUT_MS', 10_000, 100, 3_600_000);
  return {
    statementMs,
    // Two seconds for the server's cancel to come back over a live connection.
    queryMs: statementMs + 2_000,
    idleInTransactionMs: read.int(
      'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS',
      10_000,
      100,
      3_600_000,
    ),
    acquireMs: read.int('DATABASE_ACQUIRE_TIMEOUT_MS', 5_000, 100, 600_000),
    idleMs: read.int('DATABASE_IDLE_TIMEOUT_MS', 10_000, 100, 3_600_000),
    keepAliveMs: read.int('DATABASE_KEEPALIVE_MS', 10_000, 1_000, 3_600_000),
  };
}
