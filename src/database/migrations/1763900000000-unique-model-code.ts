import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `general.code` is a stable key within a supplier. The service checks it before
 * storing; this index makes the check hold when two uploads race.
 */
export class UniqueModelCode1763900000000 implements MigrationInterface {
  name = 'UniqueModelCode1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createIndex(
      'models',
      new TableIndex({
        name: 'uq_models_supplier_code',
        columnNames: ['supplier_id', 'code'],
        isUnique: true,
        where: '"code" IS NOT NULL',
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('models', 'uq_models_supplier_code');
  }
}
