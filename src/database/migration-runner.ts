import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** Key of the PostgreSQL advisory lock held while migrating ("cfgmigr"). */
const MIGRATION_LOCK_KEY = 0x6366676d;

/**
 * Runs pending migrations before anything else uses the database. On PostgreSQL the
 * run holds an advisory lock, so several instances starting together migrate one
 * after another instead of racing (TypeORM takes no such lock itself); the later ones
 * then find nothing to do.
 */
@Injectable()
export class MigrationRunner implements OnModuleInit {
  private readonly logger = new Logger('Migrations');

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async onModuleInit(): Promise<void> {
    if (this.dataSource.options.type !== 'postgres') {
      await this.run();
      return;
    }
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.connect();
      await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      await this.run();
    } finally {
      await runner
        .query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
        .catch(() => undefined);
      await runner.release();
    }
  }

  private async run(): Promise<void> {
    const applied = await this.dataSource.runMigrations({ transaction: 'each' });
    for (const migration of applied) this.logger.log(`Applied ${migration.name}`);
  }
}
