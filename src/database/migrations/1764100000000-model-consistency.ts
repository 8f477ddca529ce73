import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Stores each model version's compiled consistency form (engine
 * `serializeConsistency`: bytes) and the engine version that built it, so a restart
 * or another instance loads it instead of recompiling; a different engine version
 * recompiles lazily. Existing versions start empty (compiled on first use).
 */
export class ModelConsistency1764100000000 implements MigrationInterface {
  name = 'ModelConsistency1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.options.type === 'postgres';
    await queryRunner.addColumns('model_versions', [
      new TableColumn({
        name: 'consistency',
        type: postgres ? 'bytea' : 'blob',
        isNullable: true,
      }),
      new TableColumn({
        name: 'consistency_engine',
        type: 'varchar',
        length: '32',
        isNullable: true,
      }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('model_versions', 'consistency_engine');
    await queryRunner.dropColumn('model_versions', 'consistency');
  }
}
