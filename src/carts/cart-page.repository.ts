import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { allRows, entityRows, fixedSql, type EntityRows } from '../database/fixed-sql.js';
import { CartLineEntity } from './cart-line.entity.js';

/**
 * The page of lines GET /v1/carts/{id} reads, as fixed SQL (database/fixed-sql.ts): every
 * cart read runs it, and TypeORM's `findAndCount` (query building, a second query for the
 * count, entity hydration through its transformer) cost about a sixth of such a read's
 * CPU (docs/adr/0055). The count is not read here: the cart's summary counts its lines.
 */
@Injectable()
export class CartPageRepository {
  private readonly lineRows: EntityRows<CartLineEntity>;
  private readonly pageSql: string;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.lineRows = entityRows(dataSource, CartLineEntity);
    this.pageSql = fixedSql(
      dataSource,
      `SELECT ${this.lineRows.columns()} FROM "cart_lines" WHERE "cart_id" = $1 ` +
        'ORDER BY "created_at" ASC, "id" ASC LIMIT $2 OFFSET $3',
    );
  }

  /** One page of the cart's lines, oldest first (as CartRepository.pageOfLines orders them). */
  async linesOfPage(cartId: string, offset: number, limit: number): Promise<CartLineEntity[]> {
    const rows = await allRows<Record<string, unknown>>(this.dataSource, this.pageSql, [
      cartId,
      limit,
      offset,
    ]);
    return rows.map((row) => this.lineRows.hydrate(row));
  }
}
