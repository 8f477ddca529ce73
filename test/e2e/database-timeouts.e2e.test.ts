import { DataSource, QueryFailedError } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseProblemCode, isDatabaseUnavailable } from '../../src/database/db-errors.js';
import { expectEnvelope } from '../support/factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

const onPostgres = Boolean(process.env.DATABASE_URL);

describe('database timeouts', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestApp({
      DATABASE_STATEMENT_TIMEOUT_MS: '300',
      DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '400',
      DATABASE_ACQUIRE_TIMEOUT_MS: '1500',
    });
  });
  afterAll(() => ctx?.close());

  it.runIf(onPostgres)(
    'sets the statement and idle-in-transaction timeouts on every pool connection',
    async () => {
      const dataSource = ctx.app.get(DataSource);
      const [settings] = (await dataSource.query(
        `SELECT current_setting('statement_timeout') AS statement,
                current_setting('idle_in_transaction_session_timeout') AS idle`,
      )) as Array<{ statement: string; idle: string }>;
      expect(settings).toEqual({ statement: '300ms', idle: '400ms' });
      const error: unknown = await dataSource.query('SELECT pg_sleep(5)').catch((e) => e);
      expect(error).toBeInstanceOf(QueryFailedError);
      expect((error as QueryFailedError & { driverError: { code: string } }).driverError.code).toBe(
        '57014',
      );
      // What the error filter answers for it: a 503 naming the timeout.
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(databaseProblemCode(error)).toBe('database_timeout');
      // The connection is still usable after the server cancelled its statement.
      expect(await dataSource.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    },
  );

  it.runIf(onPostgres)('ends a transaction left idle past its timeout', async () => {
    const runner = ctx.app.get(DataSource).createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await runner.query('SELECT 1');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      // The server ended the session (its locks with it); the pool let that connection go.
      expect(runner.isReleased).toBe(true);
      await expect(runner.query('SELECT 1')).rejects.toThrow(/released/);
    } finally {
      await runner.release();
    }
    expectEnvelope(await ctx.http.get('/health/ready'), 200);
  });

  it.runIf(!onPostgres)('sets SQLite busy timeout to the acquire timeout', async () => {
    const rows = (await ctx.app.get(DataSource).query('PRAGMA busy_timeout')) as Array<
      Record<string, number>
    >;
    expect(Object.values(rows[0])).toEqual([1500]);
  });
});
