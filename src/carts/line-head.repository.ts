import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { firstRow, fixedSql } from '../database/fixed-sql.js';
import type { CartLineEntity } from './cart-line.entity.js';
import type { CartFilter } from './cart.repository.js';

/** What replacing a line (PUT) needs of it: neither its answers nor its snapshots. */
export type LineHead = Pick<
  CartLineEntity,
  'id' | 'cartId' | 'modelId' | 'versionNumber' | 'companyId' | 'revision'
>;

const COLUMNS =
  'l."id", l."cart_id", l."model_id", l."version_number", l."company_id", l."revision"';

/**
 * The line a PUT replaces, as fixed SQL (every PUT reads it): without its large columns,
 * and with the visibility of its cart in the same query, so that a PUT reads one row where
 * it read the cart and then the whole line.
 */
@Injectable()
export class LineHeadRepository {
  private readonly sql: { ofCart: string; visible: string; visibleInCompany: string };

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    const visible =
      `SELECT ${COLUMNS} FROM "cart_lines" l JOIN "carts" c ON c."id" = l."cart_id" ` +
      'WHERE l."id" = $1 AND c."id" = $2 AND c."user_id" = $3';
    this.sql = {
      ofCart: fixedSql(
        dataSource,
        `SELECT ${COLUMNS} FROM "cart_lines" l WHERE l."id" = $1 AND l."cart_id" = $2`,
      ),
      visible: fixedSql(dataSource, visible),
      visibleInCompany: fixedSql(dataSource, `${visible} AND c."company_id" = $4`),
    };
  }

  /** The line of the cart, or null. */
  async lineHead(cartId: string, lineId: number): Promise<LineHead | null> {
    return head(await firstRow<Row>(this.dataSource, this.sql.ofCart, [lineId, cartId]));
  }

  /** The line of the cart when the cart is one `filter` sees (a cart scope), or null. */
  async visibleLineHead(
    filter: CartFilter,
    cartId: string,
    lineId: number,
  ): Promise<LineHead | null> {
    const parameters = [lineId, cartId, filter.userId];
    const row =
      filter.companyId === undefined
        ? await firstRow<Row>(this.dataSource, this.sql.visible, parameters)
        : await firstRow<Row>(this.dataSource, this.sql.visibleInCompany, [
            ...parameters,
            filter.companyId,
          ]);
    return head(row);
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
  };
}
