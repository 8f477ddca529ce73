import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource, type Repository } from 'typeorm';
import { TransactionRunner } from '../database/transaction-runner.js';
import { CompanyMemberEntity } from '../memberships/company-member.entity.js';
import { CompanyEntity } from './company.entity.js';

export type NewCompanyRow = Omit<CompanyEntity, 'id'>;

/** The companies table. A duplicate vat_number reaches the caller as a unique violation. */
@Injectable()
export class CompanyRepository {
  private readonly rows: Repository<CompanyEntity>;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly transactions: TransactionRunner,
  ) {
    this.rows = dataSource.getRepository(CompanyEntity);
  }

  /** The company and its creator's membership, in one transaction. */
  createWithMember(row: NewCompanyRow, memberId: number): Promise<CompanyEntity> {
    return this.transactions.run(async (manager) => {
      const company = await manager.save(manager.create(CompanyEntity, row));
      await manager.insert(
        CompanyMemberEntity,
        manager.create(CompanyMemberEntity, {
          companyId: company.id,
          userId: memberId,
          createdAt: company.createdAt,
        }),
      );
      return company;
    });
  }

  findById(id: number): Promise<CompanyEntity | null> {
    return this.rows.findOneBy({ id });
  }

  /** One page by id of every company (`'all'`) or of those ids, with the count. */
  page(ids: 'all' | number[], offset: number, limit: number): Promise<[CompanyEntity[], number]> {
    return this.rows.findAndCount({
      where: ids === 'all' ? {} : { id: In(ids) },
      order: { id: 'ASC' },
      skip: offset,
      take: limit,
    });
  }
}
