import {
  Table,
  TableForeignKey,
  TableIndex,
  type MigrationInterface,
  type QueryRunner,
} from 'typeorm';

/** Device tokens of logins (src/auth/device-token.entity.ts): sha256 only, per user. */
export class DeviceTokens1764700000000 implements MigrationInterface {
  name = 'DeviceTokens1764700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.options.type === 'postgres';
    const timestamp = postgres ? 'timestamptz' : 'datetime';
    await queryRunner.createTable(
      new Table({
        name: 'device_tokens',
        columns: [
          {
            name: 'id',
            type: 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'user_id', type: 'integer' },
          { name: 'token_hash', type: 'varchar', length: '64' },
          { name: 'expires_at', type: timestamp },
          { name: 'created_at', type: timestamp },
        ],
        indices: [
          new TableIndex({
            name: 'UQ_device_tokens_token_hash',
            columnNames: ['token_hash'],
            isUnique: true,
          }),
          new TableIndex({ name: 'IDX_device_tokens_user_id', columnNames: ['user_id'] }),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'FK_device_tokens_user',
            columnNames: ['user_id'],
            referencedTableName: 'users',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('device_tokens');
  }
}
