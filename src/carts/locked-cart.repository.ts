import type { DataSource, EntityManager } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata.js';
import { fixedSql } from '../database/fixed-sql.js';
import { CartLineEntity } from './cart-line.entity.js';

/** Snapshot columns are optional: rows written by tests and older code paths have none. */
type SnapshotColumns = 'snapshot' | 'compactSnapshot' | 'engineVersion' | 'valid';
export type NewCartLineRow = Omit<
  CartLineEntity,
  'id' | 'createdAt' | 'revision' | SnapshotColumns
> &
  Partial<Pick<CartLineEntity, SnapshotColumns>>;

/** Reads a line admission check needs: inside the locked transaction, or outside one. */
export interface CartLineReader {
  /**
   * A currency of the cart's lines other than `currency` (null when there is none);
   * `besidesLine`: of its lines but that one (a line moved to a version in another currency).
   */
  otherCurrency(cartId: string, currency: string, besidesLine?: number): Promise<string | null>;
  /** A company of the cart's lines other than `companyId` (null when there is none). */
  otherCompany(cartId: string, companyId: number): Promise<number | null>;
}

/** The cart's lines while its row is locked: check, then insert. */
export interface LockedCart extends CartLineReader {
  /** How many lines the cart holds (read under the lock: CART_MAX_LINES cannot be raced). */
  lineCount(cartId: string): Promise<number>;
  insertLine(row: NewCartLineRow): Promise<CartLineEntity>;
  /**
   * The usual case of POST /v1/carts in one statement: inserts the line only when the
   * cart holds no line in another currency or of another company and fewer than
   * `maxLines` lines (the checks
   * DefaultCarts.lineProblems and CART_MAX_LINES make, read in the same statement).
   * Null when it inserted nothing: the caller then asks why with the reads above.
   */
  insertLineIfAdmitted(row: NewCartLineRow, maxLines: number): Promise<CartLineEntity | null>;
  /** The line of this cart (null when it has none with this id). */
  findLine(cartId: string, lineId: number): Promise<CartLineEntity | null>;
  /**
   * Replaces what `row` holds of the line, keeping its id and place, and counts its
   * revision up; when `revision` is given, only while the line is still at it. The new
   * revision, or null when nothing was replaced.
   */
  replaceLine(lineId: number, revision: number | null, row: NewCartLineRow): Promise<number | null>;
}

/** The fixed SQL (database/fixed-sql.ts) of a line joining a cart: every POST /v1/carts runs it. */
export interface LineSql {
  otherCurrency: string;
  otherCurrencyBesides: string;
  otherCompany: string;
  count: string;
  insert: string;
  insertIfAdmitted: string;
  insertColumns: ColumnMetadata[];
  /** `replace` sets these columns (all a new line sets but its cart, creation and revision). */
  replaceColumns: ColumnMetadata[];
  replace: string;
  /** `replace` while the line is at a given revision. */
  replaceIf: string;
}

/** What a replacement leaves: the line's cart, when it was added, and its revision (+1). */
const KEPT_ON_REPLACE = new Set(['cartId', 'createdAt', 'revision', 'valid']);

export function lineSql(dataSource: DataSource): LineSql {
  const insertColumns = dataSource
    .getMetadata(CartLineEntity)
    .columns.filter((column) => !column.isGenerated);
  const names = insertColumns.map((column) => `"${column.databaseName}"`).join(', ');
  const marks = insertColumns.map((_, i) => `$${i + 1}`).join(', ');
  const next = insertColumns.length + 1;
  const replaceColumns = insertColumns.filter(
    (column) => !KEPT_ON_REPLACE.has(column.propertyName),
  );
  const sets = replaceColumns.map((column, i) => `"${column.databaseName}" = $${i + 1}`);
  const after = replaceColumns.length + 1;
  const replace =
    `UPDATE "cart_lines" SET ${sets.join(', ')}, "revision" = "revision" + 1 ` +
    `WHERE "id" = $${after} AND "cart_id" = $${after + 1}`;
  return {
    replaceColumns,
    replace: fixedSql(dataSource, `${replace} RETURNING "revision"`),
    replaceIf: fixedSql(
      dataSource,
      `${replace} AND "revision" = $${after + 2} RETURNING "revision"`,
    ),
    // Answered from ix_cart_lines_cart_currency_total alone: the row (answers) is not read.
    otherCurrency: fixedSql(
      dataSource,
      'SELECT "currency" FROM "cart_lines" WHERE "cart_id" = $1 AND "currency" <> $2 LIMIT 1',
    ),
    otherCurrencyBesides: fixedSql(
      dataSource,
      'SELECT "currency" FROM "cart_lines" WHERE "cart_id" = $1 AND "currency" <> $2 ' +
        'AND "id" <> $3 LIMIT 1',
    ),
    otherCompany: fixedSql(
      dataSource,
      'SELECT "company_id" FROM "cart_lines" WHERE "cart_id" = $1 AND "company_id" <> $2 LIMIT 1',
    ),
    count: fixedSql(
      dataSource,
      'SELECT COUNT(1) AS "lines" FROM "cart_lines" WHERE "cart_id" = $1',
    ),
    insert: fixedSql(
      dataSource,
      `INSERT INTO "cart_lines" (${names}) VALUES (${marks}) RETURNING "id"`,
    ),
    insertIfAdmitted: fixedSql(
      dataSource,
      `INSERT INTO "cart_lines" (${names}) SELECT ${marks} WHERE NOT EXISTS (SELECT 1 FROM ` +
        `"cart_lines" WHERE "cart_id" = $${next} AND ("currency" <> $${next + 1} OR ` +
        `"company_id" <> $${next + 2})) AND (SELECT COUNT(1) FROM "cart_lines" WHERE ` +
        `"cart_id" = $${next + 3}) < $${next + 4} RETURNING "id"`,
    ),
    insertColumns,
  };
}

export async function otherCompanyIn(
  manager: EntityManager,
  sql: LineSql,
  cartId: string,
  companyId: number,
): Promise<number | null> {
  const rows: { company_id: number | string }[] = await manager.query(sql.otherCompany, [
    cartId,
    companyId,
  ]);
  return rows.length === 0 ? null : Number(rows[0].company_id);
}

export async function otherCurrencyIn(
  manager: EntityManager,
  sql: LineSql,
  cartId: string,
  currency: string,
  besidesLine?: number,
): Promise<string | null> {
  const rows: { currency: string }[] =
    besidesLine === undefined
      ? await manager.query(sql.otherCurrency, [cartId, currency])
      : await manager.query(sql.otherCurrencyBesides, [cartId, currency, besidesLine]);
  return rows[0]?.currency ?? null;
}

/**
 * The rows an UPDATE … RETURNING answers through `EntityManager.query`: PostgreSQL's runner
 * gives `[rows, count]` for an UPDATE, better-sqlite3's the rows.
 */
function returnedRows<Row>(raw: unknown): Row[] {
  if (!Array.isArray(raw)) return [];
  return (Array.isArray(raw[0]) ? raw[0] : raw) as Row[];
}

/** The LockedCart of a transaction (`manager`) that holds the cart. */
export function lockedCart(manager: EntityManager, sql: LineSql): LockedCart {
  // Not save(), which first diffs and merges the whole entity, answers JSON included
  // (38 ms for a 1,000-question line); fixed SQL with TypeORM's own column conversions
  // rather than the insert builder.
  const rowOf = (row: NewCartLineRow) => {
    const line = manager.create(CartLineEntity, row);
    const values = sql.insertColumns.map((column) =>
      manager.connection.driver.preparePersistentValue(column.getEntityValue(line), column),
    );
    return { line, values };
  };
  const inserted = (line: CartLineEntity, rows: { id: number | string }[]) => {
    if (rows.length === 0) return null;
    line.id = Number(rows[0].id);
    return line;
  };
  return {
    otherCurrency: (cartId, currency, besidesLine) =>
      otherCurrencyIn(manager, sql, cartId, currency, besidesLine),
    otherCompany: (cartId, companyId) => otherCompanyIn(manager, sql, cartId, companyId),
    lineCount: async (cartId) => {
      const rows: { lines: number | string }[] = await manager.query(sql.count, [cartId]);
      return Number(rows[0].lines);
    },
    insertLine: async (row) => {
      const { line, values } = rowOf(row);
      return inserted(line, await manager.query(sql.insert, values))!;
    },
    findLine: (cartId, lineId) => manager.findOneBy(CartLineEntity, { id: lineId, cartId }),
    // Fixed SQL as for inserts: TypeORM's update builder and a read of the revision after
    // it cost ~2 ms of the main thread per PUT of a 1,000-question line.
    replaceLine: async (lineId, revision, row) => {
      const line = manager.create(CartLineEntity, row);
      const values = sql.replaceColumns.map((column) =>
        manager.connection.driver.preparePersistentValue(column.getEntityValue(line), column),
      );
      const where = [lineId, row.cartId, ...(revision === null ? [] : [revision])];
      const raw: unknown = await manager.query(revision === null ? sql.replace : sql.replaceIf, [
        ...values,
        ...where,
      ]);
      const rows = returnedRows<{ revision: number | string }>(raw);
      return rows.length === 0 ? null : Number(rows[0].revision);
    },
    insertLineIfAdmitted: async (row, maxLines) => {
      const { line, values } = rowOf(row);
      const admission = [row.cartId, row.currency, row.companyId, row.cartId, maxLines];
      return inserted(line, await manager.query(sql.insertIfAdmitted, [...values, ...admission]));
    },
  };
}
