import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

const INDEX = 'uq_carts_one_intent_cart_per_user_and_company';

/**
 * An add with an intent token whose user's default cart belongs to another
 * company goes to one cart per user and company, made on first use. The flag marks that
 * cart; the partial unique index keeps it one under concurrent first adds (the losing
 * insert re-reads the winner), as `uq_carts_one_default_per_user` does for the default.
 */
export class IntentCarts1764765000000 implements MigrationInterface {
  name = 'IntentCarts1764765000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn(
      'carts',
      new TableColumn({ name: 'is_intent_cart', type: 'boolean', default: false }),
    );
    await queryRunner.createIndex(
      'carts',
      new TableIndex({
        name: INDEX,
        columnNames: ['user_id', 'company_id'],
        isUnique: true,
        where: '"is_intent_cart" = true',
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('carts', INDEX);
    await queryRunner.dropColumn('carts', 'is_intent_cart');
  }
}
