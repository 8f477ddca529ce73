import { Injectable } from '@nestjs/common';
import { AccessService } from '../access/access.service.js';
import { Page } from '../common/envelope/envelope.js';
import { ApiError } from '../common/errors/api-error.js';
import type { PageQueryDto } from '../common/pagination/page-query.dto.js';
import { isForeignKeyViolation, isUniqueViolation } from '../database/db-errors.js';
import type { MemberDto } from '../memberships/dto/member.dto.js';
import { MembershipsService } from '../memberships/memberships.service.js';
import type { Principal } from '../principal/principal.js';
import { CompanySupplierDto, SupplierDto, type CreateSupplierDto } from './dto/supplier.dto.js';
import { SupplierRepository } from './supplier.repository.js';
import { normalizeEmail } from '../common/validation/email-address.js';

const noSuchSupplier = (path?: string) =>
  ApiError.notFound('The supplier does not exist', [
    { code: 'not_found', message: 'No supplier has this id', ...(path ? { path } : {}) },
  ]);

@Injectable()
export class SuppliersService {
  constructor(
    private readonly suppliers: SupplierRepository,
    private readonly memberships: MembershipsService,
    private readonly access: AccessService,
  ) {}

  /** Creates a supplier linked to company `companyId` (404 if none), in one transaction. */
  async create(
    principal: Principal,
    companyId: number,
    input: CreateSupplierDto,
  ): Promise<SupplierDto> {
    this.access.requireAdmin(principal);
    await this.access.requireCompany(principal, companyId);
    try {
      const supplier = await this.suppliers.createLinked(
        {
          email: normalizeEmail(input.email),
          name: input.name,
          website: input.website,
          contactPerson: input.contact_person ?? null,
          phoneNumber: input.phone_number ?? null,
          vatNumber: input.vat_number ?? null,
          cocNumber: input.coc_number ?? null,
          createdAt: new Date(),
        },
        companyId,
      );
      return SupplierDto.from(supplier);
    } catch (error) {
      // The only unique index on suppliers is email.
      if (isUniqueViolation(error)) {
        throw ApiError.conflict('Error while inserting the new supplier', [
          { code: 'duplicate', message: 'A supplier with this email exists', path: 'email' },
        ]);
      }
      // The company was deleted since the check above.
      if (isForeignKeyViolation(error)) throw ApiError.notFound('No company found');
      throw error;
    }
  }

  /** Visible to admins, its members and members of companies that buy from it; else 404. */
  async get(principal: Principal, supplierId: number): Promise<SupplierDto> {
    await this.access.requireReadableSupplier(principal, supplierId, () => noSuchSupplier());
    const supplier = await this.suppliers.findById(supplierId);
    if (!supplier) throw noSuchSupplier();
    return SupplierDto.from(supplier);
  }

  /** The suppliers of a company the caller may see; 404 when none. */
  async listForCompany(
    principal: Principal,
    companyId: number,
    query: PageQueryDto,
  ): Promise<Page<CompanySupplierDto>> {
    await this.access.requireCompany(principal, companyId);
    const [rows, total] = await this.suppliers.pageForCompany(
      companyId,
      query.offset,
      query.per_page,
    );
    if (total === 0) throw ApiError.notFound('No suppliers found');
    return new Page(rows.map(CompanySupplierDto.from), query.page, query.per_page, total);
  }

  /** Links an existing supplier to another company (admins). */
  async linkToCompany(
    principal: Principal,
    companyId: number,
    supplierId: number,
  ): Promise<SupplierDto> {
    this.access.requireAdmin(principal);
    await this.access.requireCompany(principal, companyId);
    const supplier = await this.suppliers.findById(supplierId);
    if (!supplier) throw noSuchSupplier('supplier_id');
    try {
      await this.suppliers.link(companyId, supplierId);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw ApiError.conflict('The supplier is already linked to this company', [
          { code: 'duplicate', message: 'Already linked', path: 'supplier_id' },
        ]);
      }
      if (isForeignKeyViolation(error)) throw noSuchSupplier('supplier_id');
      throw error;
    }
    return SupplierDto.from(supplier);
  }

  /** Admins add members; an unknown supplier is a 404. */
  async addMember(principal: Principal, supplierId: number, userId: number): Promise<MemberDto> {
    this.access.requireAdmin(principal);
    if (!(await this.suppliers.exists(supplierId))) throw noSuchSupplier();
    return this.memberships.add(principal, { kind: 'supplier', id: supplierId }, userId);
  }
}
