import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository, type FindOptionsWhere } from 'typeorm';
import { AccessService } from '../access/access.service.js';
import type { Principal } from '../auth/principal.js';
import { Page } from '../common/envelope/envelope.js';
import { ApiError } from '../common/errors/api-error.js';
import type { PageQueryDto } from '../common/pagination/page-query.dto.js';
import { isUniqueViolation } from '../database/db-errors.js';
import { UserEntity } from '../users/user.entity.js';
import { CompanyMemberEntity } from './company-member.entity.js';
import { CompanyEntity } from './company.entity.js';
import { CompanyDto, type CreateCompanyDto } from './dto/company.dto.js';
import type { MemberDto } from './dto/member.dto.js';
import { addMember, listMembers } from './memberships.js';
import { TransactionRunner } from '../database/transaction-runner.js';

const companiesNotFound = () => ApiError.notFound('Companies not found');

@Injectable()
export class CompaniesService {
  constructor(
    private readonly transactions: TransactionRunner,
    @InjectRepository(CompanyEntity) private readonly companies: Repository<CompanyEntity>,
    @InjectRepository(CompanyMemberEntity)
    private readonly members: Repository<CompanyMemberEntity>,
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    private readonly access: AccessService,
  ) {}

  /**
   * Creates a company with its creator as first member, in one transaction. An intent
   * token is bound to one existing company, so it may not create another (403).
   */
  async create(principal: Principal, input: CreateCompanyDto): Promise<CompanyDto> {
    if (principal.via === 'intent') {
      throw ApiError.forbidden('An intent token may not create a company', [
        { code: 'intent_not_allowed', message: 'Log in to create a company' },
      ]);
    }
    const company = this.companies.create({
      email: input.email.toLowerCase(),
      name: input.name,
      vatNumber: input.vat_number,
      cocNumber: input.coc_number,
      phoneNumber: input.phone_number ?? null,
      website: input.website ?? null,
      contactPerson: input.contact_person ?? null,
      createdById: principal.userId,
      createdAt: new Date(),
    });
    try {
      await this.transactions.run(async (manager) => {
        await manager.save(company);
        const membership = manager.create(CompanyMemberEntity, {
          companyId: company.id,
          userId: principal.userId,
          createdAt: company.createdAt,
        });
        await manager.insert(CompanyMemberEntity, membership);
      });
    } catch (error) {
      // The only unique index on companies is vat_number (the seed's 400, not a 409).
      if (isUniqueViolation(error)) {
        throw ApiError.badRequest('Error while inserting the new company', [
          {
            code: 'duplicate',
            message: 'A company with this vat_number exists',
            path: 'vat_number',
          },
        ]);
      }
      throw error;
    }
    return CompanyDto.from(company);
  }

  /** The companies the caller may see, by id; 404 when there is none at all. */
  async list(principal: Principal, query: PageQueryDto): Promise<Page<CompanyDto>> {
    let where: FindOptionsWhere<CompanyEntity> = {};
    if (!this.access.seesAllCompanies(principal)) {
      const ids = await this.access.companyIdsOf(principal);
      if (ids.length === 0) throw companiesNotFound();
      where = { id: In(ids) };
    }
    const [rows, total] = await this.companies.findAndCount({
      where,
      order: { id: 'ASC' },
      skip: query.offset,
      take: query.per_page,
    });
    if (total === 0) throw companiesNotFound();
    return new Page(rows.map(CompanyDto.from), query.page, query.per_page, total);
  }

  /**
   * The seed answers one company as an array holding it. The route's guard has checked
   * that the caller may see it (companyMember).
   */
  async get(companyId: number): Promise<CompanyDto[]> {
    const company = await this.companies.findOneBy({ id: companyId });
    if (!company) throw ApiError.notFound('No company found');
    return [CompanyDto.from(company)];
  }

  /** The guard has checked that the caller may see (so manage) the company. */
  addMember(companyId: number, userId: number): Promise<MemberDto> {
    return addMember(this.members, this.users, { companyId, userId });
  }

  listMembers(companyId: number, query: PageQueryDto): Promise<Page<MemberDto>> {
    return listMembers(this.members, this.users, { companyId }, query);
  }
}
