import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { isUniqueViolation } from '../database/db-errors.js';
import { CartEntity } from './cart.entity.js';

/** The synchronous better-sqlite3 handle TypeORM keeps as `driver.databaseConnection`. */
interface SyncSqliteHandle {
  transaction<T>(work: () => T): () => T;
  prepare(sql: string): { run(...params: unknown[]): unknown };
}

/** Key space of the PostgreSQL advisory lock that serializes one user's default changes. */
const DEFAULT_CART_LOCK = 0x43617274; // "Cart"

/** A PostgreSQL mover can only lose to a lock-free first-cart insert; one retry settles it. */
const MOVE_ATTEMPTS = 5;

/**
 * Moves a user's default flag to one of their carts: clear the old default and set
 * the new one in one transaction, so that the partial unique index
 * `uq_carts_one_default_per_user` never sees two defaults and the user never has none.
 *
 * PostgreSQL: a transaction on its own pooled connection, serialized per user by an
 * advisory lock (which holds across service instances). SQLite: TypeORM shares one
 * connection between all requests, so an async transaction would interleave with
 * other requests' statements; the two updates run as one synchronous better-sqlite3
 * transaction instead, which nothing can interleave with.
 */
@Injectable()
export class DefaultCartStore {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async moveDefault(userId: number, cartId: string): Promise<void> {
    if (this.dataSource.options.type === 'postgres') return this.moveOnPostgres(userId, cartId);
    this.moveOnSqlite(userId, cartId);
  }

  private async moveOnPostgres(userId: number, cartId: string): Promise<void> {
    for (let attempt = 1; attempt <= MOVE_ATTEMPTS; attempt += 1) {
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

  private moveOnSqlite(userId: number, cartId: string): void {
    const handle = (this.dataSource.driver as unknown as { databaseConnection: SyncSqliteHandle })
      .databaseConnection;
    const clear = handle.prepare(
      'UPDATE "carts" SET "is_default" = 0 WHERE "user_id" = ? AND "is_default" = 1',
    );
    const claim = handle.prepare(
      'UPDATE "carts" SET "is_default" = 1 WHERE "id" = ? AND "user_id" = ?',
    );
    handle.transaction(() => {
      clear.run(userId);
      claim.run(cartId, userId);
    })();
  }
}
