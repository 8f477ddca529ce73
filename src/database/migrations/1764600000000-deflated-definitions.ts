import { deflateSync, inflateSync } from 'node:zlib';
import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Versions converted per query: bounds the memory a large catalogue needs. */
const BATCH = 50;

/**
 * Model versions keep their merged definition deflated (`definition_deflated`, blob /
 * bytea) instead of as JSON text: a 5,000-question model's 2.6 MB of JSON become about
 * 180 KB, which keeps an upload's synchronous SQLite write short (docs/adr/
 * 0038-deflated-definitions.md). Existing versions are converted; `down` restores text.
 */
export class DeflatedDefinitions1764600000000 implements MigrationInterface {
  name = 'DeflatedDefinitions1764600000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.options.type === 'postgres';
    await queryRunner.addColumn(
      'model_versions',
      new TableColumn({
        name: 'definition_deflated',
        type: postgres ? 'bytea' : 'blob',
        isNullable: true,
      }),
    );
    await convert(queryRunner, 'definition', (text: string) => deflateSync(text));
    await queryRunner.dropColumn('model_versions', 'definition');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'model_versions',
      new TableColumn({ name: 'definition', type: 'text', isNullable: true }),
    );
    await convert(queryRunner, 'definition_deflated', (bytes: Buffer) =>
      inflateSync(bytes).toString('utf8'),
    );
    await queryRunner.dropColumn('model_versions', 'definition_deflated');
  }
}

/** Writes every version's `from` column, converted, into the other definition column. */
async function convert<T>(
  queryRunner: QueryRunner,
  from: 'definition' | 'definition_deflated',
  change: (value: T) => unknown,
): Promise<void> {
  const postgres = queryRunner.connection.options.type === 'postgres';
  const to = from === 'definition' ? 'definition_deflated' : 'definition';
  const [a, b] = postgres ? ['$1', '$2'] : ['?', '?'];
  for (let after = 0; ;) {
    const rows: Array<{ id: number; value: T }> = await queryRunner.query(
      `SELECT "id", "${from}" AS "value" FROM "model_versions" WHERE "id" > ${a} ` +
        `ORDER BY "id" LIMIT ${BATCH}`,
      [after],
    );
    if (rows.length === 0) return;
    for (const row of rows) {
      await queryRunner.query(`UPDATE "model_versions" SET "${to}" = ${a} WHERE "id" = ${b}`, [
        change(row.value),
        row.id,
      ]);
      after = row.id;
    }
  }
}
