import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../principal/auth.decorator.js';
import { CurrentPrincipal } from '../principal/current-principal.decorator.js';
import type { Principal } from '../principal/principal.js';
import type { Page } from '../common/envelope/envelope.js';
import { ResponseMessage } from '../common/envelope/response-message.decorator.js';
import { PageQueryDto } from '../common/pagination/page-query.dto.js';
import { SeedContract } from '../common/seed-contract.decorator.js';
import { ApiEnvelope, ApiErrors } from '../common/swagger/api-envelope.decorator.js';
import { CompaniesService } from './companies.service.js';
import { CompanyDto, CreateCompanyDto } from './dto/company.dto.js';
import { IdParam } from '../common/http/id-param.js';

@ApiTags('companies')
@Controller('v1/companies')
export class CompaniesController {
  constructor(private readonly companies: CompaniesService) {}

  @Post()
  @Auth('jwt', 'intent', { refused: ['intent'] })
  @SeedContract({ invalidBody: 401 })
  @ResponseMessage('Company created')
  @ApiOperation({
    summary: 'Create a company; the caller becomes its member',
    description:
      'An invalid body answers 401 and a duplicate vat_number 400 (seed contract). ' +
      'Intent tokens are refused (403): they are bound to one existing company.',
  })
  @ApiEnvelope(CompanyDto, { status: 201 })
  @ApiErrors(400, 401, 403)
  create(
    @Body() body: CreateCompanyDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<CompanyDto> {
    return this.companies.create(principal, body);
  }

  @Get()
  @Auth('jwt', 'intent')
  @SeedContract()
  @ResponseMessage('Companies found')
  @ApiOperation({
    summary: 'List the companies the caller may see',
    description: 'Admins: all; members: theirs; an intent token: its company. None: 404.',
  })
  @ApiEnvelope(CompanyDto, { paginated: true })
  @ApiErrors(400, 403, 404)
  list(
    @Query() query: PageQueryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Page<CompanyDto>> {
    return this.companies.list(principal, query);
  }

  @Get(':id')
  @Auth('jwt', 'intent', { companyMember: 'id' })
  @SeedContract()
  @ResponseMessage('Company found')
  @ApiOperation({
    summary: 'Get a company (data is an array holding it)',
    description: 'A company the caller may not see answers 404, as if it did not exist.',
  })
  @ApiEnvelope(CompanyDto, { isArray: true })
  @ApiErrors(403, 404)
  get(@IdParam() id: number, @CurrentPrincipal() principal: Principal): Promise<CompanyDto[]> {
    return this.companies.get(principal, id);
  }
}
