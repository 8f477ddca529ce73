import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';

/**
 * A last write a caller asks to commit together with a repository's unit of work, given
 * what the work made (an idempotency key's outcome): both are stored, or neither.
 */
export type CommitStep<R> = (manager: EntityManager, made: R) => Promise<void>;

/**
 * Runs a unit of work in a transaction. PostgreSQL gives each transaction its own
 * pooled connection. TypeORM's SQLite driver shares one connection between all
 * requests, where two overlapping transactions fail ("cannot start a transaction
 * within a transaction"), so SQLite transactions are queued and run one at a time.
 */
@Injectable()
export class TransactionRunner {
  private sqliteQueue: Promise<unknown> = Promise.resolve();
  private queued = 0;
  /** Told how long each SQLite transaction waited for the connection (DatabasePool's metrics). */
  onSqliteWait: ((ms: number) => void) | null = null;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** SQLite transactions waiting for the one connection: SQLite's "pool waiting". */
  get sqliteWaiting(): number {
    return this.queued;
  }

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (this.dataSource.options.type === 'postgres') return this.dataSource.transaction(work);
    const since = performance.now();
    this.queued++;
    const result = this.sqliteQueue.then(() => {
      this.queued--;
      this.onSqliteWait?.(performance.now() - since);
      return this.dataSource.transaction(work);
    });
    this.sqliteQueue = result.catch(() => undefined);
    return result;
  }

  /** `work`, then `step` with what it made, in one transaction (no step: `work` alone). */
  runWith<T>(
    work: (manager: EntityManager) => Promise<T>,
    step: CommitStep<T> | undefined,
  ): Promise<T> {
    return this.run(async (manager) => {
      const made = await work(manager);
      if (step) await step(manager, made);
      return made;
    });
  }
}
