import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

/**
 * The facts authorization rests on: which companies and suppliers exist, who belongs to
 * them, which company buys from which supplier. Read by table name, like immich's
 * access repository, so that the access folder depends on no feature (the features
 * depend on it); only these reads cross into other features' tables.
 */
@Injectable()
export class AccessRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

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
