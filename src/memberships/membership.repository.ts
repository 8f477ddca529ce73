import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, Repository } from 'typeorm';
import { CompanyMemberEntity } from './company-member.entity.js';
import { SupplierMemberEntity } from './supplier-member.entity.js';

/** Whose members: a company's (buyers) or a supplier's (who manage its models). */
export type MembershipOwner = { kind: 'company'; id: number } | { kind: 'supplier'; id: number };

export interface MembershipRow {
  userId: number;
  createdAt: Date;
}

/**
 * company_members and supplier_members: the same shape, keyed by (owner, user). The
 * composite primary key refuses a second membership (a unique violation for the caller).
 */
@Injectable()
export class MembershipRepository {
  private readonly companyMembers: Repository<CompanyMemberEntity>;
  private readonly supplierMembers: Repository<SupplierMemberEntity>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.companyMembers = dataSource.getRepository(CompanyMemberEntity);
    this.supplierMembers = dataSource.getRepository(SupplierMemberEntity);
  }

  async insert(owner: MembershipOwner, userId: number, createdAt: Date): Promise<void> {
    if (owner.kind === 'company') {
      await this.companyMembers.insert(
        this.companyMembers.create({ companyId: owner.id, userId, createdAt }),
      );
    } else {
      await this.supplierMembers.insert(
        this.supplierMembers.create({ supplierId: owner.id, userId, createdAt }),
      );
    }
  }

  async exists(owner: MembershipOwner, userId: number): Promise<boolean> {
    return owner.kind === 'company'
      ? this.companyMembers.existsBy({ companyId: owner.id, userId })
      : this.supplierMembers.existsBy({ supplierId: owner.id, userId });
  }

  /** False when there was no such membership. */
  async remove(owner: MembershipOwner, userId: number): Promise<boolean> {
    const result =
      owner.kind === 'company'
        ? await this.companyMembers.delete({ companyId: owner.id, userId })
        : await this.supplierMembers.delete({ supplierId: owner.id, userId });
    return Boolean(result.affected);
  }

  /** One page of memberships, by user id, with their count. */
  page(owner: MembershipOwner, offset: number, limit: number): Promise<[MembershipRow[], number]> {
    const options = { order: { userId: 'ASC' as const }, skip: offset, take: limit };
    return owner.kind === 'company'
      ? this.companyMembers.findAndCount({ ...options, where: { companyId: owner.id } })
      : this.supplierMembers.findAndCount({ ...options, where: { supplierId: owner.id } });
  }
}
