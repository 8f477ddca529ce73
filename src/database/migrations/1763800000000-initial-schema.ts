import {
  Table,
  TableForeignKey,
  TableIndex,
  type MigrationInterface,
  type QueryRunner,
  type TableColumnOptions,
} from 'typeorm';

/**
 * The whole v1 schema. Written with the Table API (not raw SQL) so that SQLite and
 * PostgreSQL run this same migration; the few driver-specific details are in `types`.
 */
export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const c = columnKit(queryRunner.connection.options.type === 'postgres');

    await queryRunner.createTable(
      new Table({
        name: 'users',
        columns: [
          c.id(),
          c.string('email', 320),
          c.string('name', 200, true),
          c.string('password_hash', 255),
          c.string('role', 16),
          c.createdAt(),
        ],
        indices: [{ name: 'uq_users_email', columnNames: ['email'], isUnique: true }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'refresh_token_families',
        columns: [
          c.uuidKey('id'),
          c.int('user_id'),
          c.string('current_jti', 36),
          c.timestamp('expires_at'),
          c.timestamp('revoked_at', true),
          c.string('revoked_reason', 32, true),
          c.createdAt(),
        ],
        foreignKeys: [c.fk('user_id', 'users')],
        indices: [{ name: 'ix_refresh_families_user', columnNames: ['user_id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'api_tokens',
        columns: [
          c.id(),
          c.int('user_id'),
          c.string('name', 100),
          c.string('token_hash', 64),
          c.string('prefix', 16),
          c.timestamp('expires_at', true),
          c.timestamp('last_used_at', true),
          c.timestamp('revoked_at', true),
          c.createdAt(),
        ],
        foreignKeys: [c.fk('user_id', 'users')],
        indices: [
          { name: 'uq_api_tokens_hash', columnNames: ['token_hash'], isUnique: true },
          // A name is unique among a user's live tokens; a revoked token frees its name.
          {
            name: 'uq_api_tokens_user_name_live',
            columnNames: ['user_id', 'name'],
            isUnique: true,
            where: '"revoked_at" IS NULL',
          },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'companies',
        columns: [
          c.id(),
          c.string('email', 320),
          c.string('name', 200),
          c.string('vat_number', 64),
          c.string('coc_number', 64),
          c.string('phone_number', 64, true),
          c.string('website', 500, true),
          c.string('contact_person', 200, true),
          c.int('created_by_id', true),
          c.createdAt(),
        ],
        foreignKeys: [c.fk('created_by_id', 'users', 'SET NULL')],
        indices: [{ name: 'uq_companies_vat_number', columnNames: ['vat_number'], isUnique: true }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'intent_tokens',
        columns: [
          c.uuidKey('id'),
          c.int('user_id'),
          c.int('company_id'),
          c.timestamp('expires_at'),
          c.timestamp('revoked_at', true),
          c.createdAt(),
        ],
        foreignKeys: [c.fk('user_id', 'users'), c.fk('company_id', 'companies')],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'company_members',
        columns: [c.int('company_id', false, true), c.int('user_id', false, true), c.createdAt()],
        foreignKeys: [c.fk('company_id', 'companies'), c.fk('user_id', 'users')],
        indices: [{ name: 'ix_company_members_user', columnNames: ['user_id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'suppliers',
        columns: [
          c.id(),
          c.string('email', 320),
          c.string('name', 200),
          c.string('website', 500),
          c.string('contact_person', 200, true),
          c.string('phone_number', 64, true),
          c.string('vat_number', 64, true),
          c.string('coc_number', 64, true),
          c.createdAt(),
        ],
        indices: [{ name: 'uq_suppliers_email', columnNames: ['email'], isUnique: true }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'supplier_members',
        columns: [c.int('supplier_id', false, true), c.int('user_id', false, true), c.createdAt()],
        foreignKeys: [c.fk('supplier_id', 'suppliers'), c.fk('user_id', 'users')],
        indices: [{ name: 'ix_supplier_members_user', columnNames: ['user_id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'company_suppliers',
        columns: [
          c.int('company_id', false, true),
          c.int('supplier_id', false, true),
          c.createdAt(),
        ],
        foreignKeys: [c.fk('company_id', 'companies'), c.fk('supplier_id', 'suppliers')],
        indices: [{ name: 'ix_company_suppliers_supplier', columnNames: ['supplier_id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'models',
        columns: [
          c.id(),
          c.int('supplier_id'),
          c.string('name', 200),
          c.string('code', 100, true),
          c.int('version_number'),
          c.int('locked_by_id', true),
          c.timestamp('locked_at', true),
          c.createdAt(),
          c.timestamp('updated_at', true),
        ],
        foreignKeys: [c.fk('supplier_id', 'suppliers'), c.fk('locked_by_id', 'users', 'SET NULL')],
        indices: [{ name: 'ix_models_supplier', columnNames: ['supplier_id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'model_versions',
        columns: [
          c.id(),
          c.int('model_id'),
          c.int('version_number'),
          c.text('definition'),
          c.string('source_format', 8),
          c.int('created_by_id', true),
          c.createdAt(),
        ],
        foreignKeys: [c.fk('model_id', 'models'), c.fk('created_by_id', 'users', 'SET NULL')],
        indices: [
          {
            name: 'uq_model_versions',
            columnNames: ['model_id', 'version_number'],
            isUnique: true,
          },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'model_assets',
        columns: [
          c.id(),
          c.int('model_id'),
          c.int('version_number'),
          c.string('path', 500),
          c.string('content_type', 100),
          c.text('content_base64'),
          c.int('size'),
        ],
        foreignKeys: [c.fk('model_id', 'models')],
        indices: [
          {
            name: 'uq_model_assets_path',
            columnNames: ['model_id', 'version_number', 'path'],
            isUnique: true,
          },
        ],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'carts',
        columns: [
          c.uuidKey('id'),
          c.int('user_id'),
          c.int('company_id', true),
          c.string('reference', 200),
          { name: 'is_default', type: 'boolean', default: false, isNullable: false },
          c.createdAt(),
        ],
        foreignKeys: [c.fk('user_id', 'users'), c.fk('company_id', 'companies', 'SET NULL')],
        indices: [{ name: 'ix_carts_user', columnNames: ['user_id'] }],
      }),
    );
    // Exactly one default cart per user, enforced by the database itself so that it
    // holds under concurrent requests and across service instances.
    await queryRunner.createIndex(
      'carts',
      new TableIndex({
        name: 'uq_carts_one_default_per_user',
        columnNames: ['user_id'],
        isUnique: true,
        where: '"is_default" = true',
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'cart_lines',
        columns: [
          c.id(),
          c.string('cart_id', 36),
          c.int('model_id'),
          c.int('version_number'),
          c.int('company_id'),
          c.string('language_code', 16, true),
          c.text('answers'),
          c.text('line'),
          c.string('total', 40),
          c.string('currency', 3),
          c.createdAt(),
        ],
        foreignKeys: [
          c.fk('cart_id', 'carts'),
          c.fk('model_id', 'models'),
          c.fk('company_id', 'companies'),
        ],
        indices: [{ name: 'ix_cart_lines_cart', columnNames: ['cart_id'] }],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'cart_lines',
      'carts',
      'model_assets',
      'model_versions',
      'models',
      'company_suppliers',
      'supplier_members',
      'suppliers',
      'company_members',
      'intent_tokens',
      'companies',
      'api_tokens',
      'refresh_token_families',
      'users',
    ]) {
      await queryRunner.dropTable(table);
    }
  }
}

/** Column builders that hide the few differences between SQLite and PostgreSQL. */
function columnKit(postgres: boolean) {
  const timestampType = postgres ? 'timestamptz' : 'datetime';
  // SQLite's CURRENT_TIMESTAMP has no milliseconds; the API promises them.
  const now = postgres ? 'now()' : "(strftime('%Y-%m-%d %H:%M:%f', 'now'))";
  return {
    id: (): TableColumnOptions => ({
      name: 'id',
      type: 'integer',
      isPrimary: true,
      isGenerated: true,
      generationStrategy: 'increment',
    }),
    uuidKey: (name: string): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: '36',
      isPrimary: true,
    }),
    int: (name: string, nullable = false, primary = false): TableColumnOptions => ({
      name,
      type: 'integer',
      isNullable: nullable,
      isPrimary: primary,
    }),
    string: (name: string, length: number, nullable = false): TableColumnOptions => ({
      name,
      type: 'varchar',
      length: String(length),
      isNullable: nullable,
    }),
    text: (name: string): TableColumnOptions => ({ name, type: 'text', isNullable: false }),
    timestamp: (name: string, nullable = false): TableColumnOptions => ({
      name,
      type: timestampType,
      isNullable: nullable,
    }),
    createdAt: (): TableColumnOptions => ({
      name: 'created_at',
      type: timestampType,
      isNullable: false,
      default: now,
    }),
    fk: (column: string, table: string, onDelete: 'CASCADE' | 'SET NULL' = 'CASCADE') =>
      new TableForeignKey({
        columnNames: [column],
        referencedTableName: table,
        referencedColumnNames: ['id'],
        onDelete,
      }),
  };
}
