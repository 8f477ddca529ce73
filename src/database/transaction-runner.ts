import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';

/**
 * Runs a unit of work in a transaction. PostgreSQL gives each transaction its own
 * pooled connection. TypeORM's SQLite driver shares one connection between all
 * requests, where two overlapping transactions fail ("cannot start a transaction
 * within a transaction"), so SQLite transactions are queued and run one at a time.
 */
@Injectable()
export class TransactionRunner {
  private sqliteQueue: Promise<unknown> = Promise.resolve();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (this.dataSource.options.type === 'postgres') return this.dataSource.transaction(work);
    const result = this.sqliteQueue.then(() => this.dataSource.transaction(work));
    this.sqliteQueue = result.catch(() => undefined);
    return result;
  }
}
