import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../principal/auth.decorator.js';
import { CurrentPrincipal } from '../principal/current-principal.decorator.js';
import type { Principal } from '../principal/principal.js';
import { IdParam } from '../common/http/id-param.js';
import { ResponseMessage } from '../common/envelope/response-message.decorator.js';
import { SeedContract } from '../common/seed-contract.decorator.js';
import { ApiEnvelope, ApiErrors } from '../common/swagger/api-envelope.decorator.js';
import { CreateSupplierDto, SupplierDto } from './dto/supplier.dto.js';
import { SuppliersService } from './suppliers.service.js';

@ApiTags('suppliers')
@Controller('v1/suppliers')
export class SuppliersController {
  constructor(private readonly suppliers: SuppliersService) {}

  @Post(':id')
  @Auth('jwt', 'api', { role: 'admin' })
  @SeedContract()
  @ResponseMessage('Supplier created')
  @ApiOperation({
    summary: 'Create a supplier linked to company {id} (admins only)',
    description:
      '{id} is the company (buyer) that purchases from the new supplier. ' +
      'A duplicate email answers 409; an unknown company 404.',
  })
  @ApiEnvelope(SupplierDto, { status: 201 })
  @ApiErrors(400, 403, 404, 409)
  create(
    @IdParam() companyId: number,
    @Body() body: CreateSupplierDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<SupplierDto> {
    return this.suppliers.create(principal, companyId, body);
  }

  @Get(':id')
  @Auth('jwt', 'api')
  @ResponseMessage('Supplier found')
  @ApiOperation({
    summary: 'Get a supplier',
    description: 'Visible to admins, its members and members of companies linked to it; else 404.',
  })
  @ApiEnvelope(SupplierDto)
  @ApiErrors(401, 404)
  get(@IdParam() id: number, @CurrentPrincipal() principal: Principal): Promise<SupplierDto> {
    return this.suppliers.get(principal, id);
  }
}
