import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

const INDEX = 'ix_cart_lines_cart_currency_total';
const index = (columnNames: string[]) => new TableIndex({ name: INDEX, columnNames });

/**
 * A line's lifecycle:
 * - `revision`: a line is replaced in place (PUT /v1/carts/{cart_id}/lines/{line_id}, a
 *   recheck's apply); 1 when added, +1 per replacement, it makes the line's ETag so that
 *   `If-Match` refuses a change based on a stale line.
 * - A cart holds one company's lines, checked like its currency when a line joins it:
 *   `company_id` joins the covering index of those checks (migration 1764501000000), so
 *   that the check still never reads a line's row (its answers).
 */
export class CartLineLifecycle1764710000000 implements MigrationInterface {
  name = 'CartLineLifecycle1764710000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'cart_lines',
      new TableColumn({ name: 'revision', type: 'integer', isNullable: false, default: 1 }),
    );
    await queryRunner.dropIndex('cart_lines', INDEX);
    await queryRunner.createIndex(
      'cart_lines',
      index(['cart_id', 'currency', 'total', 'company_id']),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('cart_lines', INDEX);
    await queryRunner.createIndex('cart_lines', index(['cart_id', 'currency', 'total']));
    await queryRunner.dropColumn('cart_lines', 'revision');
  }
}
