import type { Logger as PinoLogger } from 'pino';
import type { Logger } from 'typeorm';

/**
 * TypeORM's messages (migrations, warnings, failed queries) as pino lines. Query
 * parameters are never logged: they hold password hashes and token digests.
 */
export class TypeOrmPinoLogger implements Logger {
  constructor(private readonly logger: PinoLogger) {}

  logQuery(): void {}

  logQueryError(error: string | Error, query: string): void {
    const message = typeof error === 'string' ? error : error.message;
    this.logger.warn({ context: 'TypeORM', query }, `Query failed: ${message}`);
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn({ context: 'TypeORM', query, duration_ms: time }, 'Slow query');
  }

  logSchemaBuild(message: string): void {
    this.logger.debug({ context: 'TypeORM' }, message);
  }

  logMigration(message: string): void {
    this.logger.info({ context: 'TypeORM' }, message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    if (level === 'warn') this.logger.warn({ context: 'TypeORM' }, text);
    else this.logger.info({ context: 'TypeORM' }, text);
  }
}
