import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * A supplier retires a model (POST /v1/models/{id}/retire): no new cart line
 * may use it, its stored lines stay readable. Null while the model is active.
 */
export class ModelRetired1764705000000 implements MigrationInterface {
  name = 'ModelRetired1764705000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.options.type === 'postgres';
    await queryRunner.addColumn(
      'models',
      new TableColumn({
        name: 'retired_at',
        type: postgres ? 'timestamptz' : 'datetime',
        isNullable: true,
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('models', 'retired_at');
  }
}
