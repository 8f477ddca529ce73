import jwt from 'jsonwebtoken';
import { DataSource, QueryFailedError } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccessService } from '../../../src/access/access.service.js';
import { SessionsService } from '../../../src/auth/sessions.service.js';
import { CartLinesService } from '../../../src/carts/cart-lines.service.js';
import { CartRepository } from '../../../src/carts/cart.repository.js';
import { CartSummaryRepository } from '../../../src/carts/cart-summary.repository.js';
import { CartsService } from '../../../src/carts/carts.service.js';
import { LineChangesService } from '../../../src/carts/line-changes.service.js';
import { CartLinesQueryDto } from '../../../src/carts/dto/cart-lines-query.dto.js';
import { firstRow, fixedSql } from '../../../src/database/fixed-sql.js';
import type { JwtClaims } from '../../../src/jwt/jwt-claims.js';
import {
  createServiceContext,
  viaIntent,
  type ServiceContext,
} from '../../support/service-context.js';
import { createServiceWorld, type ServiceWorld } from '../../support/service-world.js';

/**
 * How many queries the hot paths run (issue #11), counted through TypeORM's logger,
 * which sees every statement of every query runner. On both databases.
 */
describe('hot-path queries', () => {
  let ctx: ServiceContext;
  let w: ServiceWorld;
  let access: AccessService;
  const seen: string[] = [];

  beforeAll(async () => {
    ctx = await createServiceContext();
    w = await createServiceWorld(ctx);
    access = ctx.get(AccessService);
    const logger = ctx.get(DataSource).logger;
    const logQuery = logger.logQuery.bind(logger);
    logger.logQuery = (query, parameters, runner) => {
      seen.push(query);
      logQuery(query, parameters, runner);
    };
  });
  afterAll(() => ctx?.close());

  /** The statements `work` runs (transaction control included). */
  async function queriesOf(work: () => Promise<unknown>): Promise<string[]> {
    seen.length = 0;
    await work();
    return [...seen];
  }

  const configuration = () => ({
    model_id: w.modelM,
    company_id: w.companyA,
    questions: { size: { values: ['s'] } },
  });

  it('an access JWT: the session and its user in one query, without the password hash', async () => {
    const sessions = ctx.get(SessionsService);
    const pair = await sessions.start(w.alice.userId);
    const claims = jwt.decode(pair.access_token) as JwtClaims;
    const queries = await queriesOf(async () =>
      expect((await sessions.userOfAccess(claims))?.id).toBe(w.alice.userId),
    );
    expect(queries).toHaveLength(1);
    expect(queries[0]).not.toMatch(/password/);
  });

  it('a preview: company, model and link in one query; the compiled model from the cache', async () => {
    const lines = ctx.get(CartLinesService);
    await lines.preview(w.alice, configuration()); // the compile, once
    const member = await queriesOf(() => lines.preview(w.alice, configuration()));
    expect(member).toHaveLength(1);
    const admin = await queriesOf(() => lines.preview(ctx.operator, configuration()));
    expect(admin).toHaveLength(1);
    // Only the company fact the caller's visibility rests on is selected.
    expect(member[0]).toMatch(/company_members/);
    expect(member[0]).not.toMatch(/FROM "?companies"?/);
    expect(admin[0]).toMatch(/FROM "?companies"?/);
    expect(admin[0]).not.toMatch(/company_members/);
    // An intent token's company was checked by its strategy: no query of its own.
    const intent = viaIntent(w.alice, w.companyA);
    expect(await queriesOf(() => access.requireCompany(intent, w.companyA))).toHaveLength(0);
    const viaToken = await queriesOf(() => lines.preview(intent, configuration()));
    expect(viaToken).toHaveLength(1);
    expect(viaToken[0]).not.toMatch(/company_members|FROM "?companies"?/);
  });

  it('an access rule asked twice for one principal (guard, then service) reads once', async () => {
    const principal = { ...w.alice };
    expect(await queriesOf(() => access.requireCompany(principal, w.companyA))).toHaveLength(1);
    expect(await queriesOf(() => access.requireCompany(principal, w.companyA))).toHaveLength(0);
    const supplier = () => access.requireSupplierMember(ctx.operator, w.supplierS);
    await supplier();
    expect(await queriesOf(supplier)).toHaveLength(0);
    // Another principal object (another request) reads again; a "no" is never remembered.
    expect(await queriesOf(() => access.requireCompany({ ...w.alice }, w.companyA))).toHaveLength(
      1,
    );
    const bob = { ...w.bob };
    for (let i = 0; i < 2; i++) {
      expect(await queriesOf(() => access.canSeeCompany(bob, w.companyA))).toHaveLength(1);
    }
  });

  it('a cart read: the same queries for 1 line or 5 (no model row per line)', async () => {
    const lines = ctx.get(CartLinesService);
    const carts = ctx.get(CartsService);
    const add = () => lines.add(w.alice, configuration());
    await add();
    const cartId = (await carts.getDefault(w.alice)).cart_id;
    // The lines are their stored snapshots, inflated as the answer is written.
    const read = async () => {
      const page = await carts.get(w.alice, cartId, new CartLinesQueryDto());
      let count = 0;
      for await (const line of page.elements) {
        const json = Buffer.concat(line).toString('utf8');
        expect((JSON.parse(json) as { id: number }).id).toBeGreaterThan(0);
        count++;
      }
      return count;
    };
    const one = await queriesOf(read);
    for (let i = 0; i < 4; i++) await add();
    expect(await read()).toBe(5);
    const five = await queriesOf(read);
    expect(five).toEqual(one);
    // One read of the page's models' current versions (latest_version_number), never one per line.
    expect(five.filter((query) => /"models"/.test(query))).toHaveLength(1);
  });

  it('a line added to a cart that admits it: one INSERT under the lock, no separate checks', async () => {
    const lines = ctx.get(CartLinesService);
    await lines.add(w.alice, configuration()); // the default cart exists from here on
    const queries = await queriesOf(() => lines.add(w.alice, configuration()));
    const writes = queries.filter((query) => /^INSERT/i.test(query));
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/"cart_lines"/);
    expect(
      queries.filter((query) => /COUNT\(|"currency" <>/.test(query) && /^SELECT/i.test(query)),
    ).toEqual([]);
  });

  it('a line reconfigured (PUT): its row read with its cart, without answers or snapshots; one UPDATE', async () => {
    const lines = ctx.get(CartLinesService);
    const changes = ctx.get(LineChangesService);
    const added = (await lines.add(w.alice, configuration())).reference as unknown as {
      cart_id: string;
      line_id: number;
    };
    const put = (ifMatch?: string) =>
      changes.reconfigure(
        w.alice,
        added.cart_id,
        added.line_id,
        { questions: { size: { values: ['s'] } } },
        ifMatch,
        'full',
      );
    await put(); // the compile, once
    const queries = await queriesOf(() => put('"2"'));
    // One read in all: the line, its cart's visibility and the facts of configuring it.
    const reads = queries.filter((query) => /^SELECT/i.test(query));
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatch(/FROM "cart_lines"/);
    expect(reads[0]).not.toMatch(/"answers"|snapshot/);
    // The cart's visibility is read with the line, not before it; the model, its link
    // to the line's company and the caller's membership of it with them.
    expect(reads[0]).toMatch(/JOIN "carts"/);
    for (const table of ['models', 'company_suppliers', 'company_members'])
      expect(reads[0]).toMatch(new RegExp(`JOIN "${table}"|FROM "${table}"`));
    expect(queries.filter((query) => /FROM "carts"/.test(query))).toEqual([]);
    const writes = queries.filter((query) => /^(INSERT|UPDATE|DELETE)/i.test(query));
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/^UPDATE "cart_lines" .* RETURNING "revision"$/);
    // The revision moved on: a stale If-Match loses, and nothing is written.
    await expect(put('"2"')).rejects.toMatchObject({ status: 409 });
  });

  it('on SQLite, the line checks and totals are answered by the covering index', async () => {
    const dataSource = ctx.get(DataSource);
    if (dataSource.options.type === 'postgres') return; // PostgreSQL keeps lines in TOAST
    const repository = ctx.get(CartRepository);
    const cartId = (await ctx.get(CartsService).getDefault(w.alice)).cart_id;
    const queries = await queriesOf(async () => {
      await repository.otherCurrency(cartId, 'EUR');
      await repository.otherCompany(cartId, 1);
      await ctx.get(CartSummaryRepository).summaries([cartId]);
      await repository.withCartLocked(cartId, (locked) => locked.lineCount(cartId));
    });
    const reads = queries.filter((query) => /^SELECT/i.test(query));
    expect(reads).toHaveLength(4);
    for (const query of reads) {
      const marks = query.split('?').length - 1;
      const plan: { detail: string }[] = await dataSource.query(
        `EXPLAIN QUERY PLAN ${query}`,
        Array.from({ length: marks }, () => 'x'),
      );
      expect(plan.map((step) => step.detail).join('; '), query).toMatch(
        /COVERING INDEX ix_cart_lines_cart_currency_total/,
      );
    }
  });

  it('a fixed read that fails reaches the caller as TypeORM’s QueryFailedError, logged', async () => {
    const dataSource = ctx.get(DataSource);
    const failed: string[] = [];
    const logger = dataSource.logger;
    const logQueryError = logger.logQueryError.bind(logger);
    logger.logQueryError = (error, query, parameters, runner) => {
      failed.push(query);
      logQueryError(error, query, parameters, runner);
    };
    const sql = fixedSql(dataSource, 'SELECT "no_such_column" FROM "carts" WHERE "id" = $1');
    try {
      await expect(firstRow(dataSource, sql, ['x'])).rejects.toBeInstanceOf(QueryFailedError);
      // Twice: a statement that failed to prepare is not kept.
      await expect(firstRow(dataSource, sql, ['x'])).rejects.toBeInstanceOf(QueryFailedError);
    } finally {
      logger.logQueryError = logQueryError;
    }
    expect(failed).toEqual([sql, sql]);
  });

  it('a fixed read answers the first row or null, with its parameters bound', async () => {
    const dataSource = ctx.get(DataSource);
    const sql = fixedSql(dataSource, 'SELECT "id", "email" FROM "users" WHERE "id" = $1');
    const row = await firstRow<{ id: number | string; email: string }>(dataSource, sql, [
      w.alice.userId,
    ]);
    expect(Number(row?.id)).toBe(w.alice.userId);
    expect(await firstRow(dataSource, sql, [-1])).toBeNull();
  });

  it('on SQLite, the connection runs in WAL mode with foreign keys and a busy timeout', async () => {
    const dataSource = ctx.get(DataSource);
    if (dataSource.options.type === 'postgres') return;
    const [mode] = (await dataSource.query('PRAGMA journal_mode')) as { journal_mode: string }[];
    const [keys] = (await dataSource.query('PRAGMA foreign_keys')) as { foreign_keys: number }[];
    const [busy] = (await dataSource.query('PRAGMA busy_timeout')) as { timeout: number }[];
    expect([mode.journal_mode, keys.foreign_keys, busy.timeout]).toEqual(['wal', 1, 5000]);
  });
});
