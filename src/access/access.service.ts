import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { isAdmin, type Principal } from '../auth/principal.js';
import { ApiError } from '../common/errors/api-error.js';
import { CompanyMemberEntity } from '../companies/company-member.entity.js';
import { CompanyEntity } from '../companies/company.entity.js';
import { CompanySupplierEntity } from '../suppliers/company-supplier.entity.js';
import { SupplierMemberEntity } from '../suppliers/supplier-member.entity.js';
import { SupplierEntity } from '../suppliers/supplier.entity.js';

/**
 * Who may see and do what (DESIGN.md, "Visibility"). Every visibility decision goes
 * through here so that the rules live in one place.
 */
@Injectable()
export class AccessService {
  constructor(
    @InjectRepository(CompanyEntity) private readonly companies: Repository<CompanyEntity>,
    @InjectRepository(CompanyMemberEntity)
    private readonly companyMembers: Repository<CompanyMemberEntity>,
    @InjectRepository(SupplierEntity) private readonly suppliers: Repository<SupplierEntity>,
    @InjectRepository(SupplierMemberEntity)
    private readonly supplierMembers: Repository<SupplierMemberEntity>,
    @InjectRepository(CompanySupplierEntity)
    private readonly links: Repository<CompanySupplierEntity>,
  ) {}

  /** A company the caller may see: admin, member, or the intent token's own company. */
  async canSeeCompany(principal: Principal, companyId: number): Promise<boolean> {
    if (principal.via === 'intent') {
      return (
        principal.companyId === companyId && (await this.companies.existsBy({ id: companyId }))
      );
    }
    if (isAdmin(principal)) return this.companies.existsBy({ id: companyId });
    // A membership row implies the company exists (foreign key).
    return this.isCompanyMember(principal, companyId);
  }

  /** The user may act for the company: an admin, or one of its members. */
  async isCompanyMember(
    user: Pick<Principal, 'userId' | 'role'>,
    companyId: number,
  ): Promise<boolean> {
    if (user.role === 'admin') return true;
    return this.companyMembers.existsBy({ companyId, userId: user.userId });
  }

  /** Admins see every company, except through an intent token (its one company only). */
  seesAllCompanies(principal: Principal): boolean {
    return principal.via !== 'intent' && isAdmin(principal);
  }

  /** The company, or 404 exactly as if it did not exist. */
  async requireVisibleCompany(principal: Principal, companyId: number): Promise<CompanyEntity> {
    const company = await this.companies.findOneBy({ id: companyId });
    const visible =
      company !== null &&
      (principal.via === 'intent'
        ? principal.companyId === companyId
        : await this.isCompanyMember(principal, companyId));
    if (!visible) throw ApiError.notFound('No company found');
    return company;
  }

  async isSupplierMember(principal: Principal, supplierId: number): Promise<boolean> {
    if (isAdmin(principal)) return true;
    return this.supplierMembers.existsBy({ supplierId, userId: principal.userId });
  }

  /** The supplier (404 if none); the caller must be a member or admin (else `notMemberStatus`). */
  async requireSupplierMember(
    principal: Principal,
    supplierId: number,
    notMemberStatus = 403,
  ): Promise<SupplierEntity> {
    const supplier = await this.suppliers.findOneBy({ id: supplierId });
    if (!supplier) throw ApiError.notFound('The supplier does not exist');
    if (!(await this.isSupplierMember(principal, supplierId))) {
      // The seed contract's wording for POST /v1/suppliers/{id}/models (401).
      throw new ApiError(notMemberStatus, 'User is not part of this supplier', [
        { code: 'not_a_member', message: 'You are not a member of this supplier' },
      ]);
    }
    return supplier;
  }

  /**
   * May the caller read the supplier's models? Its members may, and so may members of
   * companies linked to the supplier (an intent token: only through its company).
   */
  async canReadSupplierModels(principal: Principal, supplierId: number): Promise<boolean> {
    if (principal.via !== 'intent' && (await this.isSupplierMember(principal, supplierId)))
      return true;
    const companyIds = await this.companyIdsOf(principal);
    if (companyIds.length === 0) return false;
    return this.links
      .createQueryBuilder('l')
      .where('l.supplier_id = :supplierId', { supplierId })
      .andWhere('l.company_id IN (:...companyIds)', { companyIds })
      .getExists();
  }

  /** Is the supplier linked to the company (the company buys from it)? */
  async isLinked(companyId: number, supplierId: number): Promise<boolean> {
    return this.links.existsBy({ companyId, supplierId });
  }

  /** The companies a non-admin caller belongs to (an intent token: its company). */
  async companyIdsOf(principal: Principal): Promise<number[]> {
    if (principal.via === 'intent') return principal.companyId ? [principal.companyId] : [];
    const rows = await this.companyMembers.find({
      where: { userId: principal.userId },
      select: { companyId: true },
    });
    return rows.map((row) => row.companyId);
  }
}
