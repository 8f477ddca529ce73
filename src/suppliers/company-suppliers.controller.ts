import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../principal/auth.decorator.js';
import { CurrentPrincipal } from '../principal/current-principal.decorator.js';
import type { Principal } from '../principal/principal.js';
import { IdParam } from '../common/http/id-param.js';
import type { Page } from '../common/envelope/envelope.js';
import { ResponseMessage } from '../common/envelope/response-message.decorator.js';
import { PageQueryDto } from '../common/pagination/page-query.dto.js';
import { SeedContract } from '../common/seed-contract.decorator.js';
import { ApiEnvelope, ApiErrors } from '../common/swagger/api-envelope.decorator.js';
import { CompanySupplierDto, LinkSupplierDto, SupplierDto } from './dto/supplier.dto.js';
import { SuppliersService } from './suppliers.service.js';

/** The suppliers a company buys from (company_suppliers). */
@ApiTags('companies')
@Controller('v1/companies/:id/suppliers')
export class CompanySuppliersController {
  constructor(private readonly suppliers: SuppliersService) {}

  @Get()
  @Auth('jwt', 'intent', { companyMember: 'id' })
  @SeedContract()
  @ResponseMessage('Suppliers found')
  @ApiOperation({
    summary: 'List the suppliers of company {id}',
    description: 'A company the caller may not see, or one without suppliers, answers 404.',
  })
  @ApiEnvelope(CompanySupplierDto, { paginated: true })
  @ApiErrors(400, 403, 404)
  list(
    @IdParam() id: number,
    @Query() query: PageQueryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Page<CompanySupplierDto>> {
    return this.suppliers.listForCompany(principal, id, query);
  }

  @Post()
  @Auth('jwt', { role: 'admin' })
  @ResponseMessage('Supplier linked')
  @ApiOperation({
    summary: 'Link an existing supplier to company {id} (admins only)',
    description: 'An unknown company or supplier_id answers 404; an existing link 409.',
  })
  @ApiEnvelope(SupplierDto, { status: 201 })
  @ApiErrors(400, 401, 403, 404, 409)
  link(
    @IdParam() id: number,
    @Body() body: LinkSupplierDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<SupplierDto> {
    return this.suppliers.linkToCompany(principal, id, body.supplier_id);
  }
}
