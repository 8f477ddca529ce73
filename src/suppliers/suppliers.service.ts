import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AccessService } from '../access/access.service.js';
import type { Principal } from '../auth/principal.js';
import type { MemberDto } from '../companies/dto/member.dto.js';
import { addMember, listMembers } from '../companies/memberships.js';
import { Page } from '../common/envelope/envelope.js';
import { ApiError } from '../common/errors/api-error.js';
import type { PageQueryDto } from '../common/pagination/page-query.dto.js';
import { isForeignKeyViolation, isUniqueViolation } from '../database/db-errors.js';
import { UserEntity } from '../users/user.entity.js';
import { CompanySupplierEntity } from './company-supplier.entity.js';
import { CompanySupplierDto, SupplierDto, type CreateSupplierDto } from './dto/supplier.dto.js';
import { SupplierMemberEntity } from './supplier-member.entity.js';
import { SupplierEntity } from './supplier.entity.js';
import { TransactionRunner } from '../database/transaction-runner.js';

const noSuchSupplier = (path?: string) =>
  ApiError.notFound('The supplier does not exist', [
    { code: 'not_found', message: 'No supplier has this id', ...(path ? { path } : {}) },
  ]);

@Injectable()
export class SuppliersService {
  constructor(
    private readonly transactions: TransactionRunner,
    @InjectRepository(SupplierEntity) private readonly suppliers: Repository<SupplierEntity>,
    @InjectRepository(CompanySupplierEntity)
    private readonly links: Repository<CompanySupplierEntity>,
    @InjectRepository(SupplierMemberEntity)
    private readonly members: Repository<SupplierMemberEntity>,
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    private readonly access: AccessService,
  ) {}

  /** Creates a supplier linked to company `companyId` (404 if none), in one transaction. */
  async create(
    principal: Principal,
    companyId: number,
    input: CreateSupplierDto,
  ): Promise<SupplierDto> {
    await this.access.requireVisibleCompany(principal, companyId);
    const supplier = this.suppliers.create({
      email: input.email.toLowerCase(),
      name: input.name,
      website: input.website,
      contactPerson: input.contact_person ?? null,
      phoneNumber: input.phone_number ?? null,
      vatNumber: input.vat_number ?? null,
      cocNumber: input.coc_number ?? null,
      createdAt: new Date(),
    });
    try {
      await this.transactions.run(async (manager) => {
        await manager.save(supplier);
        const link = manager.create(CompanySupplierEntity, {
          companyId,
          supplierId: supplier.id,
          createdAt: supplier.createdAt,
        });
        await manager.insert(CompanySupplierEntity, link);
      });
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
    return SupplierDto.from(supplier);
  }

  /** Visible to admins, its members and members of companies that buy from it; else 404. */
  async get(principal: Principal, supplierId: number): Promise<SupplierDto> {
    const supplier = await this.suppliers.findOneBy({ id: supplierId });
    if (!supplier || !(await this.access.canReadSupplierModels(principal, supplierId))) {
      throw noSuchSupplier();
    }
    return SupplierDto.from(supplier);
  }

  /** The suppliers of a company the caller may see (the guard checked); 404 when none. */
  async listForCompany(companyId: number, query: PageQueryDto): Promise<Page<CompanySupplierDto>> {
    const [rows, total] = await this.suppliers
      .createQueryBuilder('s')
      .innerJoin(CompanySupplierEntity, 'l', 'l.supplier_id = s.id')
      .where('l.company_id = :companyId', { companyId })
      .orderBy('s.id', 'ASC')
      .skip(query.offset)
      .take(query.per_page)
      .getManyAndCount();
    if (total === 0) throw ApiError.notFound('No suppliers found');
    return new Page(rows.map(CompanySupplierDto.from), query.page, query.per_page, total);
  }

  /** Links an existing supplier to another company (admins; the guard checked the role). */
  async linkToCompany(
    principal: Principal,
    companyId: number,
    supplierId: number,
  ): Promise<SupplierDto> {
    await this.access.requireVisibleCompany(principal, companyId);
    const supplier = await this.suppliers.findOneBy({ id: supplierId });
    if (!supplier) throw noSuchSupplier('supplier_id');
    try {
      await this.links.insert(this.links.create({ companyId, supplierId, createdAt: new Date() }));
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

  async addMember(supplierId: number, userId: number): Promise<MemberDto> {
    if (!(await this.suppliers.existsBy({ id: supplierId }))) throw noSuchSupplier();
    return addMember(this.members, this.users, { supplierId, userId });
  }

  /** The guard checked that the supplier exists and the caller is a member or admin. */
  listMembers(supplierId: number, query: PageQueryDto): Promise<Page<MemberDto>> {
    return listMembers(this.members, this.users, { supplierId }, query);
  }
}
