import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, FindOptionsWhere, Repository } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { isForeignKeyViolation, isUniqueViolation } from '../database/db-errors.js';
import { entityRows, firstRow, fixedSql, type EntityRows } from '../database/fixed-sql.js';
import { TransactionRunner, type CommitStep } from '../database/transaction-runner.js';
import { CartLineEntity } from './cart-line.entity.js';
import {
  lineSql,
  lockedCart,
  otherCompanyIn,
  otherCurrencyIn,
  type CartLineReader,
  type LineSql,
  type LockedCart,
  type NewCartLineRow,
} from './locked-cart.repository.js';

export type { CartLineReader, LockedCart, NewCartLineRow } from './locked-cart.repository.js';
import { CartEntity } from './cart.entity.js';
import { DEFAULT_ATTEMPTS, DEFAULT_CART_LOCK, moveDefaultOnSqlite } from './new-cart.repository.js';

/** Which of a user's carts a query sees: all, or those recorded with one company. */
export interface CartFilter {
  userId: number;
  companyId?: number;
}

export type NewCartRow = Pick<
  CartEntity,
  'id' | 'userId' | 'companyId' | 'reference' | 'isDefault'
> &
  Partial<Pick<CartEntity, 'isIntentCart'>>;

/** A line's cart that was deleted while the line was being added. */
const cartGone = () =>
  ApiError.notFound('Cart not found', [
    { code: 'not_found', message: 'Cart not found', path: 'cart_id' },
  ]);

/**
 * carts and cart_lines, with every SQLite/PostgreSQL difference of the cart feature:
 * how the default flag moves, and how a cart is held while a line joins it. A second
 * default for a user reaches the caller as a unique violation
 * (`uq_carts_one_default_per_user`).
 */
@Injectable()
export class CartRepository implements CartLineReader {
  private readonly carts: Repository<CartEntity>;
  private readonly lines: Repository<CartLineEntity>;
  private readonly cartRows: EntityRows<CartEntity>;
  private readonly defaultSql: { ofUser: string; ofCompany: string };
  private readonly visibleSql: { ofUser: string; ofCompany: string };
  private readonly lineSql: LineSql;
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {
    this.carts = dataSource.getRepository(CartEntity);
    this.lines = dataSource.getRepository(CartLineEntity);
    this.cartRows = entityRows(dataSource, CartEntity);
    const defaultOf = (condition: string) =>
      fixedSql(
        dataSource,
        `SELECT ${this.cartRows.columns()} FROM "carts" ` +
          `WHERE ${condition} AND "is_default" = TRUE LIMIT 1`,
      );
    this.defaultSql = {
      ofUser: defaultOf('"user_id" = $1'),
      ofCompany: defaultOf('"user_id" = $1 AND "company_id" = $2'),
    };
    const visible = (condition: string) =>
      fixedSql(dataSource, `SELECT ${this.cartRows.columns()} FROM "carts" WHERE ${condition}`);
    this.visibleSql = {
      ofUser: visible('"id" = $1 AND "user_id" = $2'),
      ofCompany: visible('"id" = $1 AND "user_id" = $2 AND "company_id" = $3'),
    };
    this.lineSql = lineSql(dataSource);
  }

  async insert(row: NewCartRow): Promise<CartEntity> {
    const cart = this.carts.create(row);
    await this.carts.insert(cart);
    return cart;
  }

  /** The user's default cart, whoever made it. */
  findDefault(userId: number): Promise<CartEntity | null> {
    return this.findDefaultIn({ userId });
  }

  /** The cart an intent token of `companyId` adds to when the default is not its to use. */
  findIntentCart(userId: number, companyId: number): Promise<CartEntity | null> {
    return this.carts.findOneBy({ userId, companyId, isIntentCart: true });
  }

  /** Fixed SQL (database/fixed-sql.ts): every GET /v1/carts/default and POST /v1/carts reads it. */
  async findDefaultIn(filter: CartFilter): Promise<CartEntity | null> {
    const row =
      filter.companyId === undefined
        ? await firstRow<Record<string, unknown>>(this.dataSource, this.defaultSql.ofUser, [
            filter.userId,
          ])
        : await firstRow<Record<string, unknown>>(this.dataSource, this.defaultSql.ofCompany, [
            filter.userId,
            filter.companyId,
          ]);
    return row ? this.cartRows.hydrate(row) : null;
  }

  /** Fixed SQL: every read of a cart by its id (GET, PATCH, DELETE, its lines) starts here. */
  async findIn(filter: CartFilter, id: string): Promise<CartEntity | null> {
    const [sql, parameters] =
      filter.companyId === undefined
        ? [this.visibleSql.ofUser, [id, filter.userId]]
        : [this.visibleSql.ofCompany, [id, filter.userId, filter.companyId]];
    const row = await firstRow<Record<string, unknown>>(this.dataSource, sql, parameters);
    return row ? this.cartRows.hydrate(row) : null;
  }

  /** One page of carts, oldest first, with the count. */
  page(filter: CartFilter, offset: number, limit: number): Promise<[CartEntity[], number]> {
    return this.carts.findAndCount({
      where: where(filter),
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: offset,
      take: limit,
    });
  }

  /** One page of the cart's lines, oldest first, with their count. */
  pageOfLines(cartId: string, offset: number, limit: number): Promise<[CartLineEntity[], number]> {
    return this.lines.findAndCount({
      where: { cartId },
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: offset,
      take: limit,
    });
  }

  /** One line of the cart, or null. */
  findLine(cartId: string, lineId: number): Promise<CartLineEntity | null> {
    return this.lines.findOne({ where: { id: lineId, cartId } });
  }

  /** A line's stored answers and language, without its snapshots (null: no such line). */
  findAnswers(
    cartId: string,
    lineId: number,
  ): Promise<Pick<CartLineEntity, 'answers' | 'languageCode'> | null> {
    return this.lines.findOne({
      select: { id: true, answers: true, languageCode: true },
      where: { id: lineId, cartId },
    });
  }

  /**
   * Replaces what `row` holds of a line (LockedCart.replaceLine: its id, place and
   * creation kept, its revision counted up; only at `revision` when given) in one
   * statement. No cart lock: a replacement keeps the line's model and company, so no
   * rule of the cart can change, and an UPDATE … RETURNING is atomic by itself. On
   * PostgreSQL that saves the transaction's round trips (BEGIN, SELECT … FOR UPDATE,
   * COMMIT); SQLite's one shared connection still takes it in the queue of transactions.
   * The new revision, or null when nothing was replaced.
   */
  replaceLine(
    lineId: number,
    revision: number | null,
    row: NewCartLineRow,
  ): Promise<number | null> {
    if (this.dataSource.options.type === 'postgres')
      return lockedCart(this.dataSource.manager, this.lineSql).replaceLine(lineId, revision, row);
    return this.transactions.run((manager) =>
      lockedCart(manager, this.lineSql).replaceLine(lineId, revision, row),
    );
  }

  /** Stores the snapshot of a row stored before snapshots existed (at its first read). */
  async saveSnapshot(
    lineId: number,
    snapshot: Pick<CartLineEntity, 'snapshot' | 'compactSnapshot' | 'engineVersion'>,
  ): Promise<void> {
    await this.lines.update({ id: lineId }, snapshot);
  }

  /** False when the cart has no such line. */
  async deleteLine(cartId: string, lineId: number): Promise<boolean> {
    const { affected } = await this.lines.delete({ id: lineId, cartId });
    return Boolean(affected);
  }

  otherCurrency(cartId: string, currency: string, besidesLine?: number): Promise<string | null> {
    return otherCurrencyIn(this.dataSource.manager, this.lineSql, cartId, currency, besidesLine);
  }

  otherCompany(cartId: string, companyId: number): Promise<number | null> {
    return otherCompanyIn(this.dataSource.manager, this.lineSql, cartId, companyId);
  }

  /**
   * Runs `work` in a transaction holding the cart row, so that checking a new line
   * against the cart's lines and inserting it cannot interleave with another line's
   * (PostgreSQL: SELECT … FOR UPDATE; SQLite transactions already run one at a time,
   * see TransactionRunner); `step` commits with it (an idempotency key). A cart deleted
   * before its row was held is 404 (PostgreSQL: no row to lock; SQLite: the lines'
   * foreign key refuses the insert).
   */
  withCartLocked<T>(
    cartId: string,
    work: (cart: LockedCart) => Promise<T>,
    step?: CommitStep<T>,
  ): Promise<T> {
    return this.transactions
      .runWith(async (manager) => {
        if (manager.connection.options.type === 'postgres') {
          const held = (await manager.query('SELECT "id" FROM "carts" WHERE "id" = $1 FOR UPDATE', [
            cartId,
          ])) as unknown[];
          if (held.length === 0) throw cartGone();
        }
        return work(lockedCart(manager, this.lineSql));
      }, step)
      .catch((error: unknown) => {
        if (isForeignKeyViolation(error)) throw cartGone();
        throw error;
      });
  }

  /**
   * Moves a user's default flag to one of their carts: clear the old default and set
   * the new one in one transaction, so that the partial unique index never sees two
   * defaults and the user never has none.
   *
   * PostgreSQL: a transaction on its own pooled connection, serialized per user by an
   * advisory lock (which holds across service instances). SQLite: TypeORM shares one
   * connection between all requests, so an async transaction would interleave with
   * other requests' statements; the two updates run as one synchronous better-sqlite3
   * transaction instead, which nothing can interleave with.
   */
  async moveDefault(userId: number, cartId: string): Promise<void> {
    if (this.dataSource.options.type === 'postgres') return this.moveOnPostgres(userId, cartId);
    moveDefaultOnSqlite(this.dataSource, userId, cartId);
  }

  private async moveOnPostgres(userId: number, cartId: string): Promise<void> {
    for (let attempt = 1; attempt <= DEFAULT_ATTEMPTS; attempt += 1) {
      try {
        await this.dataSource.transaction(async (manager) => {
          await manager.query('SELECT pg_advisory_xact_lock($1, $2)', [DEFAULT_CART_LOCK, userId]);
          await manager.update(CartEntity, { userId, isDefault: true }, { isDefault: false });
          await manager.update(CartEntity, { id: cartId, userId }, { isDefault: true });
        });
        return;
      } catch (error) {
        // A first cart inserted as default at the same moment: clear it on the next try.
        if (!isUniqueViolation(error)) throw error;
      }
    }
    throw ApiError.conflict('The default cart is being changed concurrently; try again');
  }
}

function where(filter: CartFilter): FindOptionsWhere<CartEntity> {
  return filter.companyId === undefined
    ? { userId: filter.userId }
    : { userId: filter.userId, companyId: filter.companyId };
}
