import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';

/**
 * Reads that run on (nearly) every request, as fixed SQL text through TypeORM's raw
 * `query` instead of the query builder, which rebuilds, escapes and re-parses the SQL
 * on every call (about a sixth of the CPU of a `GET /v1/carts/default`;
 * docs/DECISIONS.md, "Hot reads"). For repositories only.
 *
 * `sql` is written with PostgreSQL's `$1, $2, …`, each used once and in order; SQLite
 * gets `?` in their place. Booleans are written as TRUE/FALSE literals (both databases
 * read them), never bound.
 */
export function fixedSql(dataSource: DataSource, sql: string): string {
  return dataSource.options.type === 'postgres' ? sql : sql.replace(/\$\d+/g, '?');
}

/** One row of a fixed query, or null: the first row `DataSource.query` answers. */
export async function firstRow<Row>(
  dataSource: DataSource,
  sql: string,
  parameters: unknown[],
): Promise<Row | null> {
  const rows = (await dataSource.query(sql, parameters)) as Row[];
  return rows[0] ?? null;
}

/** Raw rows of one entity's table as that entity, converted exactly as TypeORM's `find` does. */
export interface EntityRows<T> {
  /** Every column of the entity, quoted, for a SELECT list (`alias` prefixes them). */
  columns(alias?: string): string;
  /** The entity of a row selected with `columns()`. */
  hydrate(row: Record<string, unknown>): T;
}

export function entityRows<T extends ObjectLiteral>(
  dataSource: DataSource,
  target: EntityTarget<T>,
): EntityRows<T> {
  const metadata = dataSource.getMetadata(target);
  const driver = dataSource.driver;
  const columns = metadata.columns;
  return {
    columns: (alias) =>
      columns
        .map((column) =>
          alias ? `"${alias}"."${column.databaseName}"` : `"${column.databaseName}"`,
        )
        .join(', '),
    hydrate: (row) => {
      const entity = metadata.create(undefined, { fromDeserializer: true }) as T;
      for (const column of columns) {
        column.setEntityValue(
          entity,
          driver.prepareHydratedValue(row[column.databaseName], column),
        );
      }
      return entity;
    },
  };
}
