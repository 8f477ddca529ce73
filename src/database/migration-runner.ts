import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** Key of the PostgreSQL advisory lock held while migrating ("cfgm"). */
const MIGRATION_LOCK_KEY = 0x6366676d;

/**
 * Applies pending migrations and answers their names. On PostgreSQL the run holds an
 * advisory lock, so several instances (or the CLI) migrating at once go one after
 * another instead of racing (TypeORM takes no such lock itself); the later ones then
 * find nothing to do.
 */
export async function runMigrationsLocked(dataSource: DataSource): Promise<string[]> {
  const run = async () =>
    (await dataSource.runMigrations({ transaction: 'each' })).map((migration) => migration.name);
  if (dataSource.options.type !== 'postgres') return run();
  const runner = dataSource.createQueryRunner();
  try {
    await runner.connect();
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    return await run();
  } finally {
    await runner
      .query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
      .catch(() => undefined);
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
