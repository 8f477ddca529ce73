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

/** EXISTS answers 1/0 on SQLite, true/false on PostgreSQL. */
const truthy = (value: unknown): boolean => value === true || Number(value) === 1;

/**
 * The select-list of the configuration facts over a model row `"m"` (the model's
 * columns, prefixed `m_`; the link; the company fact, when one is asked), for SQL that
 * reads them beside something else (a stored line, whose company is a column). `company`
 * and `user` give the SQL of each (a parameter or a column), asked in the order they
 * appear, as fixed SQL numbers its parameters.
 */
export function configurationFactColumns(
  fact: CompanyFact | null,
  company: () => string,
  user: () => string,
): string {
  const linked =
    'EXISTS (SELECT 1 FROM "company_suppliers" "cs" WHERE "cs"."company_id" = ' +
    `${company()} AND "cs"."supplier_id" = "m"."supplier_id") AS "linked"`;
  const columns =
    '"m"."id" AS "m_id", "m"."supplier_id" AS "m_supplier_id", ' +
    `"m"."version_number" AS "m_version_number", "m"."retired_at" AS "m_retired_at", ${linked}`;
  if (fact === null) return columns;
  const visible =
    fact === 'companyExists'
      ? `EXISTS (SELECT 1 FROM "companies" "co" WHERE "co"."id" = ${company()})`
      : 'EXISTS (SELECT 1 FROM "company_members" "cm" WHERE "cm"."company_id" = ' +
        `${company()} AND "cm"."user_id" = ${user()})`;
  return `${columns}, ${visible} AS "company_visible"`;
}

/** The facts of a row read with configurationFactColumns (`fact`: the one it asked). */
export function configurationFactsOf(
  row: Record<string, unknown> | null,
  fact: CompanyFact | null,
): ConfigurationFacts {
  if (!row || row.m_id === null || row.m_id === undefined)
    return { companyVisible: false, model: null, linked: false };
  return {
    companyVisible: fact === null || truthy(row.company_visible),
    model: {
      id: Number(row.m_id),
      supplierId: Number(row.m_supplier_id),
      versionNumber: Number(row.m_version_number),
      retired: row.m_retired_at !== null && row.m_retired_at !== undefined,
    },
    linked: truthy(row.linked),
  };
}

/** Everything requireConfigurable decides on, read at once. */
export interface ConfigurationFacts {
  /** The asked company fact holds (true when none was asked: the caller decided already). */
  companyVisible: boolean;
  /** The model; null when there is none. */
  model: ConfigurableModel | null;
  /** The model's supplier is linked to the company. */
  linked: boolean;
}

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
    const configuration = (fact: CompanyFact | null) => {
      let parameters = 0;
      const next = () => `$${++parameters}`;
      const columns = configurationFactColumns(fact, next, next);
      return fixedSql(dataSource, `SELECT ${columns} FROM "models" "m" WHERE "m"."id" = ${next()}`);
    };
    this.configurationSql = {
      none: configuration(null),
      companyExists: configuration('companyExists'),
      member: configuration('member'),
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
    return configurationFactsOf(row, fact);
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
