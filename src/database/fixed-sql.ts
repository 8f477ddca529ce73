import { QueryFailedError, type DataSource, type EntityTarget, type ObjectLiteral } from 'typeorm';

/**
 * Reads that run on (nearly) every request, as fixed SQL text through TypeORM's raw
 * `query` instead of the query builder, which rebuilds, escapes and re-parses the SQL
 * on every call (about a sixth of the CPU of a `GET /v1/carts/default`;
 * docs/adr/0037-hot-paths.md). For repositories only.
 *
 * `sql` is written with PostgreSQL's `$1, $2, …`, each used once and in order; SQLite
 * gets `?` in their place. Booleans are written as TRUE/FALSE literals (both databases
 * read them), never bound.
 */
export function fixedSql(dataSource: DataSource, sql: string): string {
  return dataSource.options.type === 'postgres' ? sql : sql.replace(/\$\d+/g, '?');
}

/** A prepared better-sqlite3 statement, as much of it as the repositories use. */
export interface SqliteStatement {
  get(...parameters: unknown[]): unknown;
  all(...parameters: unknown[]): unknown[];
  run(...parameters: unknown[]): unknown;
}

/** The synchronous better-sqlite3 handle TypeORM keeps as `driver.databaseConnection`. */
export interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
  transaction<Args extends unknown[]>(work: (...args: Args) => void): (...args: Args) => void;
}

/** Statements prepared once per connection (a handful of fixed SQL texts). */
const statements = new WeakMap<SqliteConnection, Map<string, SqliteStatement>>();

/** TypeORM's better-sqlite3 connection of a SQLite data source. */
export function sqliteConnection(dataSource: DataSource): SqliteConnection {
  return (dataSource.driver as unknown as { databaseConnection: SqliteConnection })
    .databaseConnection;
}

/**
 * `sql` prepared on `connection` once and kept for the connection's life: preparing
 * costs more than running a point query.
 */
export function sqliteStatement(connection: SqliteConnection, sql: string): SqliteStatement {
  let prepared = statements.get(connection);
  if (prepared === undefined) statements.set(connection, (prepared = new Map()));
  let statement = prepared.get(sql);
  if (statement === undefined) prepared.set(sql, (statement = connection.prepare(sql)));
  return statement;
}

/**
 * One row of a fixed query, or null. PostgreSQL: the first row `DataSource.query`
 * answers. SQLite: the statement runs on TypeORM's own (single) better-sqlite3
 * connection directly, prepared once and kept; TypeORM's query runner around a
 * synchronous call (statement cache lookup, broadcaster, three awaits) cost as much as
 * the read itself (docs/adr/0055-main-thread-cost-of-previews-and-cart-reads.md). Same connection,
 * so the same data and the same transaction visibility; the statement is logged, and a
 * failure logged and thrown, as TypeORM's runner does.
 */
export async function firstRow<Row>(
  dataSource: DataSource,
  sql: string,
  parameters: unknown[],
): Promise<Row | null> {
  if (dataSource.options.type === 'better-sqlite3')
    return sqliteFirstRow<Row>(dataSource, sql, parameters);
  const rows = (await dataSource.query(sql, parameters)) as Row[];
  return rows[0] ?? null;
}

/** Every row of a fixed query, as firstRow reads one (on SQLite, the same prepared statement). */
export async function allRows<Row>(
  dataSource: DataSource,
  sql: string,
  parameters: unknown[],
): Promise<Row[]> {
  if (dataSource.options.type === 'better-sqlite3')
    return sqliteRead(
      dataSource,
      sql,
      parameters,
      (statement) => statement.all(...parameters) as Row[],
    );
  return (await dataSource.query(sql, parameters)) as Row[];
}

function sqliteFirstRow<Row>(
  dataSource: DataSource,
  sql: string,
  parameters: unknown[],
): Row | null {
  return sqliteRead(
    dataSource,
    sql,
    parameters,
    (statement) => (statement.get(...parameters) as Row | undefined) ?? null,
  );
}

function sqliteRead<Result>(
  dataSource: DataSource,
  sql: string,
  parameters: unknown[],
  read: (statement: SqliteStatement) => Result,
): Result {
  // As TypeORM's runner does: the logger sees every statement (hot-path query counts).
  dataSource.logger.logQuery(sql, parameters);
  try {
    return read(sqliteStatement(sqliteConnection(dataSource), sql));
  } catch (error) {
    dataSource.logger.logQueryError(error as Error, sql, parameters);
    throw new QueryFailedError(sql, parameters, error as Error);
  }
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
