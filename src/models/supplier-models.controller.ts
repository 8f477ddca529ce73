import { Controller, Get, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { Auth } from '../principal/auth.decorator.js';
import { IdParam } from '../common/http/id-param.js';
import { CurrentPrincipal } from '../principal/current-principal.decorator.js';
import type { Principal } from '../principal/principal.js';
import { Page } from '../common/envelope/envelope.js';
import { ResponseMessage } from '../common/envelope/response-message.decorator.js';
import { RawBody } from '../common/http/raw-body.decorator.js';
import { PageQueryDto } from '../common/pagination/page-query.dto.js';
import { SeedContract } from '../common/seed-contract.decorator.js';
import { ApiEnvelope, ApiErrors } from '../common/swagger/api-envelope.decorator.js';
import { AppConfig } from '../config/app-config.js';
import { ModelDto } from './dto/model.dto.js';
import { ModelUploadDto } from './dto/model-upload.dto.js';
import { ModelsService } from './models.service.js';
import { MODEL_UPLOAD_BODY } from './upload/model-upload.openapi.js';
import { modelUploadBody, readModelUpload } from './upload/read-model-upload.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';

@ApiTags('models')
@Controller('v1/suppliers')
export class SupplierModelsController {
  constructor(
    private readonly models: ModelsService,
    private readonly config: AppConfig,
  ) {}

  @Post(':id/models')
  @SeedContract({ notMember: 401 })
  @Auth('jwt', 'api', { supplierMember: 'id' })
  @RawBody()
  @Idempotent(modelUploadBody)
  @ResponseMessage('Model created')
  @ApiOperation({
    summary: 'Create a model for supplier {id} (its members and admins)',
    description:
      'Stores version 1. An invalid model answers 400 with every problem and its path; ' +
      '401 when the caller is not a member of the supplier; 409 when another model of the ' +
      'supplier has the same general.code.',
    requestBody: MODEL_UPLOAD_BODY,
  })
  @ApiParam({ name: 'id', description: 'Supplier id' })
  @ApiEnvelope(ModelUploadDto, { status: 201 })
  @ApiErrors(400, 401, 403, 404, 409, 413, 415, 422)
  create(
    @IdParam() id: number,
    @Req() req: Request,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ModelUploadDto> {
    const limit = this.config.engineLimits.uploadBytes;
    return this.models.create(principal, id, () => readModelUpload(req, limit));
  }

  @Get(':id/models')
  @Auth('jwt', 'api')
  @ResponseMessage('Models found')
  @ApiOperation({
    summary: "List a supplier's models",
    description:
      "Readable by the supplier's members, admins and members of companies linked to the " +
      'supplier; anyone else gets 404.',
  })
  @ApiParam({ name: 'id', description: 'Supplier id' })
  @ApiEnvelope(ModelDto, { paginated: true })
  @ApiErrors(400, 401, 404)
  list(
    @IdParam() id: number,
    @Query() query: PageQueryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Page<ModelDto>> {
    return this.models.listForSupplier(principal, id, query);
  }
}
