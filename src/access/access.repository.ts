import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { firstRow, fixedSql } from '../database/fixed-sql.js';
import type { CompanyFact } from './company-visibility.js';

/** A model as configuring needs it: its owner, and its current version. */
export interface ConfigurableModel {
  id: number;
  supplierId: number;
  versionNumber: number;
  /** The supplier retired it: no new lines (the caller words the refusal). */
  retired: boolean;
}

/** The EXISTS that reads each company fact (the company id, then the user id). */
const COMPANY_FACT_SQL: Record<CompanyFact, string> = {
  companyExists: 'EXISTS (SELECT 1 FROM "companies" "c" WHERE "c"."id" = $2)',
  member:
    'EXISTS (SELECT 1 FROM "company_members" "cm" WHERE "cm"."company_id" = $2 AND "cm"."user_id" = $3)',
};

/** Everything requireConfigurable decides on, read at once. */
export interface ConfigurationFacts {
  /** The asked company fact holds (true when none was asked: the caller decided already). */
  companyVisible: boolean;
  /** The model; null when there is none. */
  model: ConfigurableModel | null;
  /** The model's supplier is linked to the company. */
  linked: boolean;
}

/** EXISTS answers 1/0 on SQLite, true/false on PostgreSQL. */
const truthy = (value: unknown): boolean => value === true || Number(value) === 1;

/**
 * The facts authorization rests on: which companies and suppliers exist, who belongs to
 * them, which company buys from which supplier. Read by table name, like immich's
 * access repository, so that the access folder depends on no feature (the features
 * depend on it); only these reads cross into other features' tables.
 */
@Injectable()
export class AccessRepository {
  /** Every preview and POST /v1/carts asks: fixed SQL, one text per company fact. */
  private readonly configurationSql: Record<CompanyFact | 'none', string>;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    // Parameters in the order they appear: the company (linked), the fact's, the model.
    const configuration = (fact: string, factParameters: number) =>
      fixedSql(
        dataSource,
        'SELECT "m"."id", "m"."supplier_id", "m"."version_number", "m"."retired_at", ' +
          'EXISTS (SELECT 1 FROM ' +
          '"company_suppliers" "cs" WHERE "cs"."company_id" = $1 AND "cs"."supplier_id" = ' +
          `"m"."supplier_id") AS "linked"${fact} FROM "models" "m" ` +
          `WHERE "m"."id" = $${factParameters + 2}`,
      );
    this.configurationSql = {
      none: configuration('', 0),
      companyExists: configuration(`, ${COMPANY_FACT_SQL.companyExists} AS "company_visible"`, 1),
      member: configuration(`, ${COMPANY_FACT_SQL.member} AS "company_visible"`, 2),
    };
  }

  companyExists(companyId: number): Promise<boolean> {
    return this.exists('companies', 'id = :companyId', { companyId });
  }

  supplierExists(supplierId: number): Promise<boolean> {
    return this.exists('suppliers', 'id = :supplierId', { supplierId });
  }

  isCompanyMember(companyId: number, userId: number): Promise<boolean> {
    return this.exists('company_members', 'company_id = :companyId AND user_id = :userId', {
      companyId,
      userId,
    });
  }

  isSupplierMember(supplierId: number, userId: number): Promise<boolean> {
    return this.exists('supplier_members', 'supplier_id = :supplierId AND user_id = :userId', {
      supplierId,
      userId,
    });
  }

  /** Does one of these companies buy from the supplier? */
  anyLinked(companyIds: number[], supplierId: number): Promise<boolean> {
    if (companyIds.length === 0) return Promise.resolve(false);
    return this.exists(
      'company_suppliers',
      'supplier_id = :supplierId AND company_id IN (:...companyIds)',
      { supplierId, companyIds },
    );
  }

  /**
   * The facts of configuring `modelId` for `companyId`, in one query: the model row (id,
   * supplier, current version; the only columns read), whether its supplier is linked to
   * the company, and the company fact the caller's visibility rests on (`fact`, for
   * `userId`; none for an intent token, whose company is known), each an indexed EXISTS.
   * No model: every fact false.
   */
  async configuration(
    companyId: number,
    modelId: number,
    userId: number,
    fact: CompanyFact | null,
  ): Promise<ConfigurationFacts> {
    const [sql, parameters] =
      fact === null
        ? [this.configurationSql.none, [companyId, modelId]]
        : fact === 'companyExists'
          ? [this.configurationSql.companyExists, [companyId, companyId, modelId]]
          : [this.configurationSql.member, [companyId, companyId, userId, modelId]];
    const row = await firstRow<Record<string, unknown>>(this.dataSource, sql, parameters);
    if (!row) return { companyVisible: false, model: null, linked: false };
    return {
      companyVisible: fact === null || truthy(row.company_visible),
      model: {
        id: Number(row.id),
        supplierId: Number(row.supplier_id),
        versionNumber: Number(row.version_number),
        retired: row.retired_at !== null && row.retired_at !== undefined,
      },
      linked: truthy(row.linked),
    };
  }

  async companyIdsOf(userId: number): Promise<number[]> {
    const rows = await this.dataSource
      .createQueryBuilder()
      .select('m.company_id', 'companyId')
      .from('company_members', 'm')
      .where('m.user_id = :userId', { userId })
      .getRawMany<{ companyId: number | string }>();
    return rows.map((row) => Number(row.companyId));
  }

  private exists(table: string, where: string, params: Record<string, unknown>): Promise<boolean> {
    return this.dataSource
      .createQueryBuilder()
      .select('1')
      .from(table, 't')
      .where(where, params)
      .getExists();
  }
}
