import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * A cart line stores what the buyer saw at add time, so that reading a cart
 * never runs the engine and an engine upgrade never changes a stored line: the evaluated
 * line deflated (base64 text, as both databases store it alike) in the full and the
 * compact view, the engine version that evaluated it, and its validity. Rows stored
 * before keep them null (docs/adr/0051-stored-line-snapshots.md says how they are read).
 */
export class CartLineSnapshots1764720000000 implements MigrationInterface {
  name = 'CartLineSnapshots1764720000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('cart_lines', [
      new TableColumn({ name: 'snapshot', type: 'text', isNullable: true }),
      new TableColumn({ name: 'compact_snapshot', type: 'text', isNullable: true }),
      new TableColumn({ name: 'engine_version', type: 'varchar', length: '20', isNullable: true }),
      new TableColumn({ name: 'valid', type: 'boolean', isNullable: false, default: true }),
    ]);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const name of ['valid', 'engine_version', 'compact_snapshot', 'snapshot'])
      await queryRunner.dropColumn('cart_lines', name);
  }
}
