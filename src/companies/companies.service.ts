import { Injectable } from '@nestjs/common';
import { AccessService } from '../access/access.service.js';
import { Page } from '../common/envelope/envelope.js';
import { ApiError } from '../common/errors/api-error.js';
import type { PageQueryDto } from '../common/pagination/page-query.dto.js';
import { isUniqueViolation } from '../database/db-errors.js';
import type { Principal } from '../principal/principal.js';
import { CompanyRepository } from './company.repository.js';
import { CompanyDto, type CreateCompanyDto } from './dto/company.dto.js';
import { normalizeEmail } from '../common/validation/email-address.js';

const companiesNotFound = () => ApiError.notFound('Companies not found');

@Injectable()
export class CompaniesService {
  constructor(
    private readonly companies: CompanyRepository,
    private readonly access: AccessService,
  ) {}

  /** Creates a company with its creator as first member, in one transaction. */
  async create(principal: Principal, input: CreateCompanyDto): Promise<CompanyDto> {
    this.access.requireMayCreateCompany(principal);
    try {
      const company = await this.companies.createWithMember(
        {
          email: normalizeEmail(input.email),
          name: input.name,
          vatNumber: input.vat_number,
          cocNumber: input.coc_number,
          phoneNumber: input.phone_number ?? null,
          website: input.website ?? null,
          contactPerson: input.contact_person ?? null,
          createdById: principal.userId,
          createdAt: new Date(),
        },
        principal.userId,
      );
      return CompanyDto.from(company);
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
  }

  /** The companies the caller may see, by id; 404 when there is none at all. */
  async list(principal: Principal, query: PageQueryDto): Promise<Page<CompanyDto>> {
    const ids = await this.access.visibleCompanyIds(principal);
    if (ids !== 'all' && ids.length === 0) throw companiesNotFound();
    const [rows, total] = await this.companies.page(ids, query.offset, query.per_page);
    if (total === 0) throw companiesNotFound();
    return new Page(rows.map(CompanyDto.from), query.page, query.per_page, total);
  }

  /** The seed answers one company as an array holding it; 404 when the caller may not see it. */
  async get(principal: Principal, companyId: number): Promise<CompanyDto[]> {
    await this.access.requireCompany(principal, companyId);
    const company = await this.companies.findById(companyId);
    if (!company) throw ApiError.notFound('No company found');
    return [CompanyDto.from(company)];
  }
}
