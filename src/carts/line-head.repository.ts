import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import {
  configurationFactColumns,
  configurationFactsOf,
  type ConfigurationFacts,
} from '../access/access.repository.js';
import type { CompanyFact } from '../access/company-visibility.js';
import { firstRow, fixedSql } from '../database/fixed-sql.js';
import type { CartLineEntity } from './cart-line.entity.js';
import type { CartFilter } from './cart.repository.js';

/** What replacing a line (PUT) needs of it: neither its answers nor its snapshots. */
export type LineHead = Pick<
  CartLineEntity,
  'id' | 'cartId' | 'modelId' | 'versionNumber' | 'companyId' | 'revision' | 'currency'
>;

/** A line a PUT replaces, with the facts AccessService decides its configuration on. */
export interface LineToReplace {
  line: LineHead;
  facts: ConfigurationFacts;
}

const COLUMNS =
  'l."id", l."cart_id", l."model_id", l."version_number", l."company_id", l."revision", ' +
  'l."currency"';

/** One SQL text per company fact and cart scope (a user's carts, or one company's of them). */
type FactKey = `${CompanyFact | 'none'} ${'user' | 'company'}`;

/**
 * The line a PUT replaces, as fixed SQL (every PUT reads it): without its large columns,
 * with the visibility of its cart and the facts of configuring its model for its company
 * (AccessRepository's, see configurationFactColumns) in the same query, so that a PUT
 * reads once where it read the line, then the facts.
 */
@Injectable()
export class LineHeadRepository {
  private readonly ofCart: string;
  private readonly toReplace = new Map<FactKey, string>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.ofCart = fixedSql(
      dataSource,
      `SELECT ${COLUMNS} FROM "cart_lines" l WHERE l."id" = $1 AND l."cart_id" = $2`,
    );
    for (const fact of ['none', 'companyExists', 'member'] as const) {
      for (const scope of ['user', 'company'] as const) {
        this.toReplace.set(`${fact} ${scope}`, this.toReplaceSql(fact, scope));
      }
    }
  }

  /** The line of the cart, or null. */
  async lineHead(cartId: string, lineId: number): Promise<LineHead | null> {
    return head(await firstRow<Row>(this.dataSource, this.ofCart, [lineId, cartId]));
  }

  /**
   * The line of the cart when the cart is one `filter` sees (a cart scope), with the
   * configuration facts of its model and company (`fact`: the company fact AccessService
   * asks for the caller, `userId`'s when it is membership), or null.
   */
  async lineToReplace(
    filter: CartFilter,
    cartId: string,
    lineId: number,
    fact: CompanyFact | null,
  ): Promise<LineToReplace | null> {
    const scope = filter.companyId === undefined ? 'user' : 'company';
    const sql = this.toReplace.get(`${fact ?? 'none'} ${scope}`) as string;
    // In the order the text names them: the member fact's user, then the line's keys.
    const parameters: unknown[] = fact === 'member' ? [filter.userId] : [];
    parameters.push(lineId, cartId, filter.userId);
    if (filter.companyId !== undefined) parameters.push(filter.companyId);
    const row = await firstRow<Row>(this.dataSource, sql, parameters);
    const line = head(row);
    return line === null ? null : { line, facts: configurationFactsOf(row, fact) };
  }

  private toReplaceSql(fact: CompanyFact | 'none', scope: 'user' | 'company'): string {
    let parameters = 0;
    const next = () => `$${++parameters}`;
    const facts = configurationFactColumns(
      fact === 'none' ? null : fact,
      () => 'l."company_id"',
      next,
    );
    const sql =
      `SELECT ${COLUMNS}, ${facts} FROM "cart_lines" l ` +
      'JOIN "carts" c ON c."id" = l."cart_id" LEFT JOIN "models" "m" ON "m"."id" = l."model_id" ' +
      `WHERE l."id" = ${next()} AND c."id" = ${next()} AND c."user_id" = ${next()}` +
      (scope === 'company' ? ` AND c."company_id" = ${next()}` : '');
    return fixedSql(this.dataSource, sql);
  }
}

type Row = Record<string, unknown>;

function head(row: Row | null): LineHead | null {
  if (row === null) return null;
  return {
    id: Number(row.id),
    cartId: String(row.cart_id),
    modelId: Number(row.model_id),
    versionNumber: Number(row.version_number),
    companyId: Number(row.company_id),
    revision: Number(row.revision),
    currency: String(row.currency),
  };
}
