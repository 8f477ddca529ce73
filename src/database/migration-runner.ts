import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, MigrationExecutor } from 'typeorm';

/** Key of the PostgreSQL advisory lock held while migrating ("cfgm"). */
const MIGRATION_LOCK_KEY = 0x6366676d;

/**
 * Applies pending migrations and answers their names. On PostgreSQL the run holds an
 * advisory lock, so several instances (or the CLI) migrating at once go one after
 * another instead of racing (TypeORM takes no such lock itself); the later ones then
 * find nothing to do. The lock and the migrations share one connection whose statement
 * timeout is lifted for the run: waiting for another instance's migration, or rewriting a
 * large table, may take longer than any request should (the pool's connections keep it).
 */
export async function runMigrationsLocked(dataSource: DataSource): Promise<string[]> {
  if (dataSource.options.type !== 'postgres') {
    return (await dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name);
  }
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query('SET statement_timeout = 0');
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'each';
    return (await executor.executePendingMigrations()).map((migration) => migration.name);
  } finally {
    await runner
      .query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
      .catch(() => undefined);
    // Back to the connection's own timeout (the pool's setting) before it is reused.
    await runner.query('RESET statement_timeout').catch(() => undefined);
    await runner.release();
  }
}

/** Runs pending migrations before anything else uses the database. */
@Injectable()
export class MigrationRunner implements OnModuleInit {
  private readonly logger = new Logger('Migrations');

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    for (const name of await runMigrationsLocked(this.dataSource))
      this.logger.log(`Applied ${name}`);
  }
}
