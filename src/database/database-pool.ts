import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { TransactionRunner } from './transaction-runner.js';

/** The connections of the database pool now; a field is absent where it means nothing. */
export interface PoolStats {
  inUse?: number;
  idle?: number;
  waiting: number;
}

type Connect = (callback: (error: Error | undefined, ...rest: unknown[]) => void) => void;

/**
 * The database pool as metrics see it. PostgreSQL: node-postgres's pool (connections in
 * use, idle, and callers waiting for one; the time each waited). SQLite has one
 * synchronous connection and no pool: what waits there is TransactionRunner's queue of
 * transactions, so `waiting` and the wait are that queue's, and in use / idle are absent
 * (docs/adr/0176).
 */
@Injectable()
export class DatabasePool {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {}

  stats(): PoolStats | null {
    if (this.dataSource.options.type !== 'postgres')
      return { waiting: this.transactions.sqliteWaiting };
    const pool = this.pgPool();
    if (pool === undefined) return null;
    return {
      inUse: pool.totalCount - pool.idleCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    };
  }

  /**
   * Calls `listener` with the milliseconds each connection (SQLite: each transaction)
   * waited for, and whether it got one: a database that refuses or hangs shows as failed
   * waits (up to the connect timeout each), not as no waits at all. On PostgreSQL it wraps
   * the pool's `connect`, the one call TypeORM's driver makes for a connection, once: pg
   * emits no event at the start of a wait. SQLite's queue always hands the connection on.
   */
  onAcquire(listener: (ms: number, ok: boolean) => void): void {
    if (this.dataSource.options.type !== 'postgres') {
      this.transactions.onSqliteWait = (ms) => listener(ms, true);
      return;
    }
    const pool = this.pgPool() as (Pool & { connect: Connect }) | undefined;
    if (pool === undefined) return;
    const connect = pool.connect.bind(pool) as Connect;
    pool.connect = ((callback: Parameters<Connect>[0]) => {
      const since = performance.now();
      // TypeORM always passes a callback; a promise caller keeps pg's own connect.
      if (typeof callback !== 'function') return connect(callback);
      connect((error, ...rest) => {
        listener(performance.now() - since, error === undefined || error === null);
        callback(error, ...rest);
      });
    }) as Connect & Pool['connect'];
  }

  private pgPool(): Pool | undefined {
    return (this.dataSource.driver as unknown as { master?: Pool }).master;
  }
}
