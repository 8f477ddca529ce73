import { createHash, randomBytes } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../src/config/app-config.js';
import { buildDataSourceOptions } from '../../src/data-source-options.js';
import { MIGRATIONS } from '../../src/database/migrations/index.js';
import { ASSET_CHUNK_BYTES, chunkCount } from '../../src/models/asset-bytes.repository.js';
import { ModelRepository } from '../../src/models/model.repository.js';
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

  it('deflates stored definitions, and restores their text when reverted', async () => {
    const deflating = MIGRATIONS.findIndex((m) => m.name === 'DeflatedDefinitions1764600000000');
    const before = await open(MIGRATIONS.slice(0, deflating));
    await before.runMigrations();
    const postgres = before.options.type === 'postgres';
    const insert = async (table: string, row: Record<string, unknown>): Promise<number> => {
      const columns = Object.keys(row);
      const marks = columns.map((_, i) => (postgres ? `$${i + 1}` : '?'));
      await before.query(
        `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${marks.join(', ')})`,
        Object.values(row),
      );
      const [last] = await before.query(`SELECT MAX("id") AS "id" FROM "${table}"`);
      return Number(last.id);
    };
    const text = JSON.stringify({ general: { name: 'Deflated', code: 'D-1' }, questions: [] });
    const supplierId = await insert('suppliers', {
      email: 'd@example.test',
      name: 'D',
      website: 'w',
    });
    const modelId = await insert('models', {
      supplier_id: supplierId,
      name: 'D',
      version_number: 1,
    });
    const versionId = await insert('model_versions', {
      model_id: modelId,
      version_number: 1,
      definition: text,
      source_format: 'json',
    });
    await before.destroy();

    const after = await open(MIGRATIONS.slice(0, deflating + 1));
    try {
      await after.runMigrations();
      const byId = `FROM "model_versions" WHERE "id" = ${versionId}`;
      const [row] = await after.query(`SELECT "definition_deflated" AS "bytes" ${byId}`);
      expect(inflateSync(row.bytes as Buffer).toString('utf8')).toBe(text);
      await after.undoLastMigration();
      const [reverted] = await after.query(`SELECT "definition" ${byId}`);
      expect(reverted.definition).toBe(text);
    } finally {
      await after.destroy();
    }
  });

  it('moves base64 assets into content-addressed chunks, readable after it, and back when reverted', async () => {
    const chunking = MIGRATIONS.findIndex((m) => m.name === 'AssetChunks1764916000000');
    const before = await open(MIGRATIONS.slice(0, chunking));
    await before.runMigrations();
    const postgres = before.options.type === 'postgres';
    const insert = async (table: string, row: Record<string, unknown>): Promise<number> => {
      const columns = Object.keys(row);
      const marks = columns.map((_, i) => (postgres ? `$${i + 1}` : '?'));
      await before.query(
        `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${marks.join(', ')})`,
        Object.values(row),
      );
      const [last] = await before.query(`SELECT MAX("id") AS "id" FROM "${table}"`);
      return Number(last.id);
    };
    const supplierId = await insert('suppliers', {
      email: 'a@example.test',
      name: 'A',
      website: 'w',
    });
    const modelId = await insert('models', {
      supplier_id: supplierId,
      name: 'A',
      version_number: 2,
    });
    // A large image (three chunks) in two versions, and a small one: as written before.
    const large = randomBytes(ASSET_CHUNK_BYTES * 2 + 17);
    const small = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');
    const rows: Array<[number, string, Buffer]> = [
      [1, 'img/large.png', large],
      [2, 'img/large.png', large],
      [2, 'img/small.svg', small],
    ];
    for (const [version, path, bytes] of rows) {
      await insert('model_assets', {
        model_id: modelId,
        version_number: version,
        path,
        content_type: path.endsWith('.svg') ? 'image/svg+xml' : 'image/png',
        content_base64: bytes.toString('base64'),
        size: bytes.length,
      });
    }
    await before.destroy();

    const after = await open(MIGRATIONS.slice(0, chunking + 1));
    try {
      await after.runMigrations();
      const models = new ModelRepository(after, undefined as never);
      for (const [version, path, bytes] of rows) {
        const asset = await models.findAsset(modelId, version, path);
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        expect(asset).toMatchObject({ sha256, size: bytes.length });
        const chunks: Buffer[] = [];
        for (let seq = 0; seq < chunkCount(bytes.length); seq++)
          chunks.push((await models.findAssetChunk(sha256, seq)) ?? Buffer.alloc(0));
        expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
      }
      // Stored once: the large image's three chunks and the small one's.
      const [count] = await after.query('SELECT COUNT(*) AS "n" FROM "asset_chunks"');
      expect(Number(count.n)).toBe(4);
      await after.undoLastMigration();
      const reverted: Array<{ path: string; text: string }> = await after.query(
        'SELECT "path", "content_base64" AS "text" FROM "model_assets" ORDER BY "id"',
      );
      expect(reverted.map((row) => Buffer.from(row.text, 'base64'))).toEqual(
        rows.map(([, , bytes]) => bytes),
      );
    } finally {
      await after.destroy();
    }
  });

  it('indexes the cart line checks so that they never read a line (both databases)', async () => {
    const dataSource = await open(MIGRATIONS);
    try {
      await dataSource.runMigrations();
      const postgres = dataSource.options.type === 'postgres';
      const indexes: { name: string; definition: string }[] = await dataSource.query(
        postgres
          ? "SELECT indexname AS name, indexdef AS definition FROM pg_indexes WHERE tablename = 'cart_lines'"
          : "SELECT name, sql AS definition FROM sqlite_master WHERE type = 'index' AND tbl_name = 'cart_lines'",
      );
      const byName = new Map(indexes.map((index) => [index.name, index.definition]));
      expect(byName.get('ix_cart_lines_cart_currency_total')).toMatch(
        /"?cart_id"?, "?currency"?, "?total"?/,
      );
      // Its prefix index is redundant: dropped.
      expect(byName.has('ix_cart_lines_cart')).toBe(false);
      if (!postgres) {
        // The queries CartRepository runs for the checks and totals: answered by the index.
        for (const sql of [
          'SELECT "currency" FROM "cart_lines" WHERE "cart_id" = ? AND "currency" <> ? LIMIT 1',
          'SELECT "company_id" FROM "cart_lines" WHERE "cart_id" = ? AND "company_id" <> ? LIMIT 1',
          'SELECT COUNT(1) FROM "cart_lines" WHERE "cart_id" = ?',
          'SELECT "id", "total", "currency" FROM "cart_lines" WHERE "cart_id" = ?',
        ]) {
          const plan: { detail: string }[] = await dataSource.query(
            `EXPLAIN QUERY PLAN ${sql}`,
            sql
              .split('?')
              .slice(1)
              .map(() => 'x'),
          );
          expect(plan.map((step) => step.detail).join('; '), sql).toMatch(
            /COVERING INDEX ix_cart_lines_cart_currency_total/,
          );
        }
      }
    } finally {
      await dataSource.destroy();
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
