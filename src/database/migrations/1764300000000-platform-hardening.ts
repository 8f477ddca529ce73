import {
  Table,
  TableColumn,
  TableForeignKey,
  type MigrationInterface,
  type QueryRunner,
} from 'typeorm';

/**
 * The refresh grace window (the jti just replaced and when), disabled users,
 * and company invitations by email. Table API only, so SQLite and PostgreSQL run it alike.
 */
export class PlatformHardening1764300000000 implements MigrationInterface {
  name = 'PlatformHardening1764300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.options.type === 'postgres';
    const timestamp = postgres ? 'timestamptz' : 'datetime';
    const now = postgres ? 'now()' : "(strftime('%Y-%m-%d %H:%M:%f', 'now'))";

    await queryRunner.addColumns('refresh_token_families', [
      new TableColumn({ name: 'previous_jti', type: 'varchar', length: '36', isNullable: true }),
      new TableColumn({ name: 'rotated_at', type: timestamp, isNullable: true }),
    ]);
    await queryRunner.addColumn(
      'users',
      new TableColumn({ name: 'disabled_at', type: timestamp, isNullable: true }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'company_invitations',
        columns: [
          {
            name: 'id',
            type: 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'company_id', type: 'integer' },
          { name: 'email', type: 'varchar', length: '320' },
          { name: 'invited_by_id', type: 'integer', isNullable: true },
          { name: 'accepted_at', type: timestamp, isNullable: true },
          { name: 'created_at', type: timestamp, default: now },
        ],
        foreignKeys: [
          new TableForeignKey({
            columnNames: ['company_id'],
            referencedTableName: 'companies',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
          new TableForeignKey({
            columnNames: ['invited_by_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'SET NULL',
          }),
        ],
        indices: [
          {
            name: 'uq_company_invitations_company_email',
            columnNames: ['company_id', 'email'],
            isUnique: true,
          },
          { name: 'ix_company_invitations_email', columnNames: ['email'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('company_invitations');
    await queryRunner.dropColumn('users', 'disabled_at');
    await queryRunner.dropColumns('refresh_token_families', ['previous_jti', 'rotated_at']);
  }
}
