import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { isUniqueViolation } from '../database/db-errors.js';
import { sqliteConnection, sqliteStatement, type SqliteConnection } from '../database/fixed-sql.js';
import { TransactionRunner, type CommitStep } from '../database/transaction-runner.js';
import { CartEntity } from './cart.entity.js';

/** Key space of the PostgreSQL advisory lock that serializes one user's default changes. */
export const DEFAULT_CART_LOCK = 0x43617274; // "Cart"

/** A PostgreSQL writer can only lose to a lock-free first-cart insert; one retry settles it. */
export const DEFAULT_ATTEMPTS = 5;

/**
 * The default-moving transaction of each SQLite connection (see moveDefaultOnSqlite): made
 * once, as better-sqlite3 builds a transaction function's wrappers each time it is asked.
 */
const sqliteMoves = new WeakMap<SqliteConnection, (userId: number, cartId: string) => void>();

/**
 * Moves a user's default flag on SQLite: TypeORM shares one connection between all
 * requests, so an async transaction would interleave with other requests' statements;
 * the two updates run as one synchronous better-sqlite3 transaction instead (a savepoint
 * inside a transaction already open), which nothing can interleave with.
 */
export function moveDefaultOnSqlite(dataSource: DataSource, userId: number, cartId: string): void {
  const connection = sqliteConnection(dataSource);
  let move = sqliteMoves.get(connection);
  if (move === undefined) {
    const clear = sqliteStatement(
      connection,
      'UPDATE "carts" SET "is_default" = 0 WHERE "user_id" = ? AND "is_default" = 1',
    );
    const claim = sqliteStatement(
      connection,
      'UPDATE "carts" SET "is_default" = 1 WHERE "id" = ? AND "user_id" = ?',
    );
    move = connection.transaction((user: number, cart: string) => {
      clear.run(user);
      claim.run(cart, user);
    });
    sqliteMoves.set(connection, move);
  }
  move(userId, cartId);
}

/** A cart to create; `isDefault` is decided by how it becomes (or not) the default. */
export type CartToCreate = Pick<CartEntity, 'id' | 'userId' | 'companyId' | 'reference'>;

/**
 * How a new cart relates to its user's default: it takes the flag (`move`), or it
 * becomes the default only when the user has none (`if_none`).
 */
export type DefaultRule = 'move' | 'if_none';

/**
 * Creates a cart (POST /v1/carts/new) in one transaction with its default flag and the
 * caller's `step` (the request's idempotency key): the cart exists with its key's answer,
 * or not at all.
 */
@Injectable()
export class NewCartRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {}

  async create(
    cart: CartToCreate,
    rule: DefaultRule,
    step?: CommitStep<CartEntity>,
  ): Promise<CartEntity> {
    if (this.dataSource.options.type !== 'postgres') {
      return this.transactions.runWith((manager) => this.createOnSqlite(manager, cart, rule), step);
    }
    for (let attempt = 1; attempt <= DEFAULT_ATTEMPTS; attempt += 1) {
      try {
        return await this.transactions.runWith(
          (manager) => this.createOnPostgres(manager, cart, rule),
          step,
        );
      } catch (error) {
        // A first cart inserted as default at the same moment (without the lock): again.
        if (!isUniqueViolation(error)) throw error;
      }
    }
    throw ApiError.conflict('The default cart is being changed concurrently; try again');
  }

  /** Serialized per user by an advisory lock (across instances), as moving the default is. */
  private async createOnPostgres(
    manager: EntityManager,
    cart: CartToCreate,
    rule: DefaultRule,
  ): Promise<CartEntity> {
    const { userId } = cart;
    await manager.query('SELECT pg_advisory_xact_lock($1, $2)', [DEFAULT_CART_LOCK, userId]);
    let isDefault = true;
    if (rule === 'move') {
      await manager.update(CartEntity, { userId, isDefault: true }, { isDefault: false });
    } else {
      isDefault = !(await manager.existsBy(CartEntity, { userId, isDefault: true }));
    }
    const row = manager.create(CartEntity, { ...cart, isDefault });
    await manager.insert(CartEntity, row);
    return row;
  }

  /**
   * Inserted as not the default, then flagged by one synchronous statement or
   * transaction: no statement of another request can come in between and make the
   * transaction fail (its rollback would take that statement's write with it).
   */
  private async createOnSqlite(
    manager: EntityManager,
    cart: CartToCreate,
    rule: DefaultRule,
  ): Promise<CartEntity> {
    const row = manager.create(CartEntity, { ...cart, isDefault: false });
    await manager.insert(CartEntity, row);
    if (rule === 'move') {
      moveDefaultOnSqlite(this.dataSource, cart.userId, cart.id);
      row.isDefault = true;
    } else {
      const claim = sqliteStatement(
        sqliteConnection(this.dataSource),
        'UPDATE "carts" SET "is_default" = 1 WHERE "id" = ? AND NOT EXISTS ' +
          '(SELECT 1 FROM "carts" WHERE "user_id" = ? AND "is_default" = 1)',
      );
      const { changes } = claim.run(cart.id, cart.userId) as { changes: number };
      row.isDefault = changes === 1;
    }
    return row;
  }
}
