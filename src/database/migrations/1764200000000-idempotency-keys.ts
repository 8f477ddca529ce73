import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/** Idempotency keys (src/idempotency): one row per (caller, key), kept 24 h. */
export class IdempotencyKeys1764200000000 implements MigrationInterface {
  name = 'IdempotencyKeys1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.options.type === 'postgres';
    const timestamp = postgres ? 'timestamptz' : 'datetime';
    await queryRunner.createTable(
      new Table({
        name: 'idempotency_keys',
        columns: [
          {
            name: 'id',
            type: 'integer',
            isPrimary: true,
            isGenerated: true,
            generationStrategy: 'increment',
          },
          { name: 'caller', type: 'varchar', length: '64' },
          { name: 'key', type: 'varchar', length: '255' },
          { name: 'fingerprint', type: 'varchar', length: '64' },
          { name: 'response_status', type: 'integer', isNullable: true },
          { name: 'response_body', type: 'text', isNullable: true },
          { name: 'completed_at', type: timestamp, isNullable: true },
          { name: 'created_at', type: timestamp },
        ],
        indices: [
          new TableIndex({
            name: 'UQ_idempotency_keys_caller_key',
            columnNames: ['caller', 'key'],
            isUnique: true,
          }),
          new TableIndex({ name: 'IDX_idempotency_keys_created_at', columnNames: ['created_at'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('idempotency_keys');
  }
}
