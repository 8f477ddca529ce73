import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Auth } from '../principal/auth.decorator.js';
import { CurrentPrincipal } from '../principal/current-principal.decorator.js';
import type { Principal } from '../principal/principal.js';
import type { Page } from '../common/envelope/envelope.js';
import { ResponseMessage } from '../common/envelope/response-message.decorator.js';
import { IdParam } from '../common/http/id-param.js';
import { ApiEnvelope, ApiErrors } from '../common/swagger/api-envelope.decorator.js';
import { ApiAssetResponse, ASSET_CACHE, joinAssetPath, sendAsset } from './asset-response.js';
import { CompanyModelsService } from './company-models.service.js';
import { AssetQueryDto } from './dto/asset-query.dto.js';
import { CompanyModelDto, CompanyModelsQueryDto } from './dto/company-model.dto.js';
import { ModelAssetsService } from './model-assets.service.js';

/** What a buyer (a company's users, or its web shop's intent token) may configure. */
@ApiTags('models')
@Controller('v1/companies')
export class CompanyModelsController {
  constructor(
    private readonly companyModels: CompanyModelsService,
    private readonly assets: ModelAssetsService,
  ) {}

  @Get(':id/models')
  @Auth('jwt', 'intent', { companyMember: 'id' })
  @ResponseMessage('Models found')
  @ApiOperation({
    summary: 'The models company {id} may configure, with their questions',
    description:
      'The models of the suppliers linked to the company, each with its questions, options, ' +
      'prices and constraints, labels in `language_code` (else the default language).',
  })
  @ApiParam({ name: 'id', description: 'Company id' })
  @ApiEnvelope(CompanyModelDto, { paginated: true })
  @ApiErrors(400, 401, 404, 422)
  list(
    @IdParam() id: number,
    @Query() query: CompanyModelsQueryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Page<CompanyModelDto>> {
    return this.companyModels.list(principal, id, query);
  }

  @Get(':id/models/:modelId/assets/*path')
  @Auth('jwt', 'intent', { companyMember: 'id' })
  @ApiOperation({
    summary: 'An image of a model company {id} may configure (not wrapped in the envelope)',
    description:
      'The URLs in cart lines and in the company’s model list point here, so that a web ' +
      'shop holding only an intent token can show them. `?version=` names a version.',
  })
  @ApiParam({ name: 'id', description: 'Company id' })
  @ApiParam({ name: 'modelId', description: 'Model id' })
  @ApiAssetResponse()
  async asset(
    @IdParam() id: number,
    @IdParam('modelId') modelId: number,
    @Param('path') path: string | string[],
    @Query() query: AssetQueryDto,
    @CurrentPrincipal() principal: Principal,
    // Sent here, not by Nest: a 304 or a stream of chunks (asset-response.ts).
    @Res() res: Response,
  ): Promise<void> {
    const file = await this.assets.getForCompany(
      principal,
      id,
      modelId,
      joinAssetPath(path),
      query.version,
    );
    sendAsset(res, file, query.version === undefined ? ASSET_CACHE.current : ASSET_CACHE.versioned);
  }
}
