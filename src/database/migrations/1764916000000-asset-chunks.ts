import { createHash } from 'node:crypto';
import { Table, TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Assets converted per query: bounds the memory a large catalogue needs. */
const BATCH = 20;

/** As ASSET_CHUNK_BYTES (src/models/asset-bytes.repository.ts), fixed here as written. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Model assets (images) are stored as bytes, content-addressed, in chunks: `asset_chunks`
 * (SHA-256 of the content, position, blob / bytea), and `model_assets.sha256` names a
 * row's content instead of `content_base64` holding it as text (a third larger, decoded
 * whole on every request; docs/adr/0162-asset-bytes-in-chunks.md). Existing rows are
 * converted; `down` restores the base64 text.
 */
export class AssetChunks1764916000000 implements MigrationInterface {
  name = 'AssetChunks1764916000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.options.type === 'postgres';
    await queryRunner.createTable(
      new Table({
        name: 'asset_chunks',
        columns: [
          { name: 'sha256', type: 'varchar', length: '64', isPrimary: true },
          { name: 'seq', type: 'integer', isPrimary: true },
          { name: 'bytes', type: postgres ? 'bytea' : 'blob' },
        ],
      }),
    );
    await queryRunner.addColumn(
      'model_assets',
      new TableColumn({ name: 'sha256', type: 'varchar', length: '64', isNullable: true }),
    );
    const [a, b, c] = postgres ? ['$1', '$2', '$3'] : ['?', '?', '?'];
    await eachAsset(queryRunner, 'content_base64', async (id, text: string) => {
      const bytes = Buffer.from(text, 'base64');
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const chunks = Math.max(1, Math.ceil(bytes.length / CHUNK_BYTES));
      for (let seq = 0; seq < chunks; seq++) {
        await queryRunner.query(
          `INSERT INTO "asset_chunks" ("sha256", "seq", "bytes") VALUES (${a}, ${b}, ${c}) ` +
            'ON CONFLICT DO NOTHING',
          [sha256, seq, bytes.subarray(seq * CHUNK_BYTES, (seq + 1) * CHUNK_BYTES)],
        );
      }
      await queryRunner.query(`UPDATE "model_assets" SET "sha256" = ${a} WHERE "id" = ${b}`, [
        sha256,
        id,
      ]);
    });
    await queryRunner.dropColumn('model_assets', 'content_base64');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.options.type === 'postgres';
    await queryRunner.addColumn(
      'model_assets',
      new TableColumn({ name: 'content_base64', type: 'text', isNullable: true }),
    );
    const [a, b] = postgres ? ['$1', '$2'] : ['?', '?'];
    await eachAsset(queryRunner, 'sha256', async (id, sha256: string) => {
      const rows: Array<{ bytes: Uint8Array }> = await queryRunner.query(
        `SELECT "bytes" FROM "asset_chunks" WHERE "sha256" = ${a} ORDER BY "seq"`,
        [sha256],
      );
      const text = Buffer.concat(rows.map((row) => Buffer.from(row.bytes))).toString('base64');
      await queryRunner.query(
        `UPDATE "model_assets" SET "content_base64" = ${a} WHERE "id" = ${b}`,
        [text, id],
      );
    });
    await queryRunner.dropColumn('model_assets', 'sha256');
    await queryRunner.dropTable('asset_chunks');
  }
}

/** Calls `convert` with each asset's id and its `from` column, in batches by id. */
async function eachAsset<T>(
  queryRunner: QueryRunner,
  from: 'content_base64' | 'sha256',
  convert: (id: number, value: T) => Promise<void>,
): Promise<void> {
  const mark = queryRunner.connection.options.type === 'postgres' ? '$1' : '?';
  for (let after = 0; ;) {
    const rows: Array<{ id: number; value: T }> = await queryRunner.query(
      `SELECT "id", "${from}" AS "value" FROM "model_assets" WHERE "id" > ${mark} ` +
        `ORDER BY "id" LIMIT ${BATCH}`,
      [after],
    );
    if (rows.length === 0) return;
    for (const row of rows) {
      if (row.value !== null) await convert(row.id, row.value);
      after = row.id;
    }
  }
}
