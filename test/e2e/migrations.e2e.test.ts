import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../src/config/app-config.js';
import { buildDataSourceOptions } from '../../src/data-source-options.js';
import { MIGRATIONS } from '../../src/database/migrations/index.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

/** The migrations themselves, on the database this run uses (SQLite or PostgreSQL). */
describe('migrations', () => {
  let database: TestDatabase;
  let config: AppConfig;

  const open = async (migrations: typeof MIGRATIONS) => {
    const dataSource = new DataSource({ ...buildDataSourceOptions(config.database), migrations });
    return dataSource.initialize();
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    config = new AppConfig({
      DATA_DIR: database.dataDir,
      JWT_SECRET: 'a-test-secret-that-is-long-enough-0123456789',
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    });
  });
  afterAll(() => database?.drop());

  it('backfills models.general from each model’s current version', async () => {
    const before = await open(MIGRATIONS.slice(0, 2));
    await before.runMigrations();
    // Raw SQL: the entities already describe the newer schema.
    const insert = (table: string, row: Record<string, unknown>) => {
      const columns = Object.keys(row);
      const marks = columns.map((_, i) => (before.options.type === 'postgres' ? `$${i + 1}` : '?'));
      return before.query(
        `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${marks.join(', ')})`,
        Object.values(row),
      );
    };
    await insert('users', { email: 'm@example.test', password_hash: 'x', role: 'member' });
    await insert('suppliers', { email: 's@example.test', name: 'S', website: 'w' });
    await insert('models', { supplier_id: 1, name: 'Old', version_number: 2 });
    for (const [version, name] of [
      [1, 'Old'],
      [2, 'Current'],
    ] as const) {
      await insert('model_versions', {
        model_id: 1,
        version_number: version,
        definition: JSON.stringify({ general: { name, code: 'M-1' } }),
        source_format: 'json',
      });
    }
    await before.destroy();

    const after = await open(MIGRATIONS.slice(0, 3));
    try {
      const applied = await after.runMigrations();
      expect(applied.map((m) => m.name)).toContain('ModelGeneral1764000000000');
      const row = await after
        .createQueryBuilder()
        .select('general')
        .from('models', 'm')
        .getRawOne();
      expect(JSON.parse(row.general)).toEqual({ name: 'Current', code: 'M-1' });
    } finally {
      await after.destroy();
    }
  });

  it('reverts every migration and applies them again', async () => {
    const dataSource = await open(MIGRATIONS);
    try {
      for (let i = 0; i < MIGRATIONS.length; i++) await dataSource.undoLastMigration();
      const left = await dataSource.query(
        dataSource.options.type === 'postgres'
          ? "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public' AND table_name = 'users'"
          : "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'users'",
      );
      expect(Number(left[0].n)).toBe(0);
      const applied = await dataSource.runMigrations();
      expect(applied).toHaveLength(MIGRATIONS.length);
    } finally {
      await dataSource.destroy();
    }
  });
});
