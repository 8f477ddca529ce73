import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, Repository } from 'typeorm';
import { TransactionRunner } from '../database/transaction-runner.js';
import { CompanySupplierEntity } from './company-supplier.entity.js';
import { SupplierEntity } from './supplier.entity.js';

export type NewSupplierRow = Omit<SupplierEntity, 'id'>;

/**
 * suppliers and company_suppliers (which company buys from which supplier). A duplicate
 * email or link reaches the caller as a unique violation, a vanished company or
 * supplier as a foreign-key violation.
 */
@Injectable()
export class SupplierRepository {
  private readonly rows: Repository<SupplierEntity>;
  private readonly links: Repository<CompanySupplierEntity>;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {
    this.rows = dataSource.getRepository(SupplierEntity);
    this.links = dataSource.getRepository(CompanySupplierEntity);
  }

  /** The supplier and its link to the company that buys from it, in one transaction. */
  createLinked(row: NewSupplierRow, companyId: number): Promise<SupplierEntity> {
    return this.transactions.run(async (manager) => {
      const supplier = await manager.save(manager.create(SupplierEntity, row));
      await manager.insert(
        CompanySupplierEntity,
        manager.create(CompanySupplierEntity, {
          companyId,
          supplierId: supplier.id,
          createdAt: supplier.createdAt,
        }),
      );
      return supplier;
    });
  }

  findById(id: number): Promise<SupplierEntity | null> {
    return this.rows.findOneBy({ id });
  }

  exists(id: number): Promise<boolean> {
    return this.rows.existsBy({ id });
  }

  async link(companyId: number, supplierId: number): Promise<void> {
    await this.links.insert(this.links.create({ companyId, supplierId, createdAt: new Date() }));
  }

  /** One page of the suppliers a company buys from, by id, with the count. */
  pageForCompany(
    companyId: number,
    offset: number,
    limit: number,
  ): Promise<[SupplierEntity[], number]> {
    return this.rows
      .createQueryBuilder('s')
      .innerJoin(CompanySupplierEntity, 'l', 'l.supplier_id = s.id')
      .where('l.company_id = :companyId', { companyId })
      .orderBy('s.id', 'ASC')
      .skip(offset)
      .take(limit)
      .getManyAndCount();
  }
}
