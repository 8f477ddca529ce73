import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource } from 'typeorm';
import { allRows, fixedSql } from '../database/fixed-sql.js';
import { TransactionRunner } from '../database/transaction-runner.js';
import { CartLineEntity } from './cart-line.entity.js';
import { CartEntity } from './cart.entity.js';

/** What a cart's lines say about it, without reading a line's JSON. */
export interface CartLineSummary {
  /** The company of its lines (a cart holds one company's lines); null without lines. */
  companyId: number | null;
  lineCount: number;
  /** Every line's total and currency, for the cart's totals. */
  prices: Array<{ total: string; currency: string }>;
}

type LinePrice = Pick<CartLineEntity, 'cartId' | 'companyId' | 'currency' | 'total'>;

/** A stored line as a version's impact reads it. */
export interface StoredAnswersRow {
  id: number;
  versionNumber: number;
  companyId: number;
  languageCode: string | null;
  /** The `answers` column as stored: JSON text. */
  answers: string;
}

/** Managing carts as a whole: their lines summed up, renaming, deleting. */
@Injectable()
export class CartSummaryRepository {
  private readonly pricesSql: string;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {
    this.pricesSql = fixedSql(
      dataSource,
      'SELECT "company_id", "currency", "total" FROM "cart_lines" WHERE "cart_id" = $1',
    );
  }

  /**
   * Per cart id: the company of its lines, their count and every line's price (carts
   * without lines absent). One query over the covering index of the line checks
   * (cart_id, currency, total, company_id): no line's row is read.
   */
  async summaries(cartIds: string[]): Promise<Map<string, CartLineSummary>> {
    const summaries = new Map<string, CartLineSummary>();
    if (cartIds.length === 0) return summaries;
    const rows =
      cartIds.length === 1 ? await this.pricesOf(cartIds[0]) : await this.pricesIn(cartIds);
    for (const row of rows) {
      const summary = summaries.get(row.cartId) ?? {
        companyId: row.companyId,
        lineCount: 0,
        prices: [],
      };
      summary.lineCount += 1;
      summary.prices.push({ total: row.total, currency: row.currency });
      summaries.set(row.cartId, summary);
    }
    return summaries;
  }

  /** One cart's (every GET, PATCH, DELETE of a cart and its page reads it): fixed SQL. */
  private async pricesOf(cartId: string): Promise<LinePrice[]> {
    const rows = await allRows<Record<string, unknown>>(this.dataSource, this.pricesSql, [cartId]);
    return rows.map((row) => ({
      cartId,
      companyId: Number(row.company_id),
      currency: String(row.currency),
      total: String(row.total),
    }));
  }

  private pricesIn(cartIds: string[]): Promise<LinePrice[]> {
    return this.dataSource.getRepository(CartLineEntity).find({
      select: { cartId: true, companyId: true, currency: true, total: true },
      where: { cartId: In(cartIds) },
    });
  }

  /**
   * A batch of a model's stored lines, by id after `afterId` (the supplier's impact): the
   * columns a check needs, the answers as their stored JSON text (parsed in the worker
   * that checks them, not here), never the snapshots.
   */
  async linesOfModel(modelId: number, afterId: number, limit: number): Promise<StoredAnswersRow[]> {
    const rows: Array<Record<string, string | number | null>> = await this.dataSource.query(
      fixedSql(
        this.dataSource,
        'SELECT "id", "version_number", "company_id", "language_code", "answers" ' +
          'FROM "cart_lines" WHERE "model_id" = $1 AND "id" > $2 ORDER BY "id" LIMIT $3',
      ),
      [modelId, afterId, limit],
    );
    return rows.map((row) => ({
      id: Number(row.id),
      versionNumber: Number(row.version_number),
      companyId: Number(row.company_id),
      languageCode: row.language_code === null ? null : String(row.language_code),
      answers: String(row.answers),
    }));
  }

  async rename(cartId: string, reference: string): Promise<void> {
    await this.dataSource.getRepository(CartEntity).update({ id: cartId }, { reference });
  }

  /** Clears the user's default flag (the user then has no default cart). */
  async clearDefault(cartId: string): Promise<void> {
    await this.dataSource.getRepository(CartEntity).update({ id: cartId }, { isDefault: false });
  }

  /**
   * The cart and its lines, in one transaction holding the cart row on PostgreSQL, so
   * that a line being added meanwhile either lands before (and goes with it) or finds
   * no cart. False when it was gone already.
   */
  remove(cartId: string): Promise<boolean> {
    return this.transactions.run(async (manager) => {
      if (manager.connection.options.type === 'postgres') {
        await manager.query('SELECT "id" FROM "carts" WHERE "id" = $1 FOR UPDATE', [cartId]);
      }
      await manager.delete(CartLineEntity, { cartId });
      const { affected } = await manager.delete(CartEntity, { id: cartId });
      return Boolean(affected);
    });
  }
}
