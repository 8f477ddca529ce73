import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Keeps each model's current `general` section on its row, so that model lists need
 * not load whole definitions (up to the 10 MB upload limit each). Backfilled from the
 * current versions.
 */
export class ModelGeneral1764000000000 implements MigrationInterface {
  name = 'ModelGeneral1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'models',
      new TableColumn({ name: 'general', type: 'text', isNullable: true }),
    );
    // Raw SQL, not entities: a migration must not change with later entity code.
    const postgres = queryRunner.connection.options.type === 'postgres';
    const rows: { id: number; definition: string }[] = await queryRunner.query(
      'SELECT m."id" AS "id", v."definition" AS "definition" FROM "models" m ' +
        'JOIN "model_versions" v ON v."model_id" = m."id" AND v."version_number" = m."version_number"',
    );
    const update = postgres
      ? 'UPDATE "models" SET "general" = $1 WHERE "id" = $2'
      : 'UPDATE "models" SET "general" = ? WHERE "id" = ?';
    for (const row of rows) {
      const general = (JSON.parse(row.definition) as { general?: unknown }).general ?? {};
      await queryRunner.query(update, [JSON.stringify(general), row.id]);
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('models', 'general');
  }
}
