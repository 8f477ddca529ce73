import { Controller, Delete, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Auth } from '../../principal/auth.decorator.js';
import { IdParam } from '../../common/http/id-param.js';
import { CurrentPrincipal } from '../../principal/current-principal.decorator.js';
import type { Principal } from '../../principal/principal.js';
import type { Page } from '../../common/envelope/envelope.js';
import { ResponseMessage } from '../../common/envelope/response-message.decorator.js';
import { PageQueryDto } from '../../common/pagination/page-query.dto.js';
import { ApiEnvelope, ApiErrors } from '../../common/swagger/api-envelope.decorator.js';
import { ModelDto } from '../dto/model.dto.js';
import {
  ModelDiffDto,
  ModelDiffQueryDto,
  ModelVersionDetailDto,
  ModelVersionDto,
} from '../dto/model-version.dto.js';
import { MAX_DIFF_CHANGES, ModelVersionsService } from './model-versions.service.js';

@ApiTags('models')
@Controller('v1/models')
export class ModelVersionsController {
  constructor(private readonly versions: ModelVersionsService) {}

  @Get(':id/versions')
  @Auth('jwt', 'api')
  @ResponseMessage('Model versions found')
  @ApiOperation({
    summary: "A model's versions, newest first, with who stored each and when",
  })
  @ApiParam({ name: 'id', description: 'Model id' })
  @ApiEnvelope(ModelVersionDto, { paginated: true })
  @ApiErrors(400, 401, 404)
  list(
    @IdParam() id: number,
    @Query() query: PageQueryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<Page<ModelVersionDto>> {
    return this.versions.list(principal, id, query);
  }

  @Get(':id/versions/:version')
  @Auth('jwt', 'api')
  @ResponseMessage('Model version found')
  @ApiOperation({ summary: 'One version of a model with its definition (versions are immutable)' })
  @ApiParam({ name: 'id', description: 'Model id' })
  @ApiParam({ name: 'version', description: 'Version number', type: Number })
  @ApiEnvelope(ModelVersionDetailDto)
  @ApiErrors(401, 404)
  get(
    @IdParam() id: number,
    @IdParam('version') version: number,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ModelVersionDetailDto> {
    return this.versions.get(principal, id, version);
  }

  @Get(':id/diff')
  @Auth('jwt', 'api')
  @ResponseMessage('Model versions compared')
  @ApiOperation({
    summary: 'What changed between two versions of a model, each change with its path',
    description:
      'Questions, options, variables, rules, compatibility-table rows, triggers, BOM items, ' +
      'prices, translations, images and general, compared by key (a reordering is no change). ' +
      `At most ${MAX_DIFF_CHANGES} changes are listed (\`truncated\`). The impact on stored ` +
      'cart lines: GET /v1/models/{id}/versions/{version}/impact (supplier members).',
  })
  @ApiParam({ name: 'id', description: 'Model id' })
  @ApiEnvelope(ModelDiffDto)
  @ApiErrors(400, 401, 404)
  diff(
    @IdParam() id: number,
    @Query() query: ModelDiffQueryDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ModelDiffDto> {
    return this.versions.diff(principal, id, query);
  }

  @Post(':id/retire')
  @HttpCode(200)
  @Auth('jwt', 'api')
  @ResponseMessage('Model retired')
  @ApiOperation({
    summary: 'Retire a model (supplier members): no new cart lines, stored lines stay',
    description:
      'POST /v1/carts, the preview and reconfiguring a line answer 409 `model_retired`; ' +
      'stored lines stay readable and removable. The model stays listed, with `retired_at`. ' +
      'Retiring a retired model changes nothing; DELETE reinstates it.',
  })
  @ApiParam({ name: 'id', description: 'Model id' })
  @ApiEnvelope(ModelDto)
  @ApiErrors(401, 403, 404)
  retire(@IdParam() id: number, @CurrentPrincipal() principal: Principal): Promise<ModelDto> {
    return this.versions.retire(principal, id);
  }

  @Delete(':id/retire')
  @Auth('jwt', 'api')
  @ResponseMessage('Model reinstated')
  @ApiOperation({ summary: 'Reinstate a retired model (supplier members): new lines again' })
  @ApiParam({ name: 'id', description: 'Model id' })
  @ApiEnvelope(ModelDto)
  @ApiErrors(401, 403, 404)
  reinstate(@IdParam() id: number, @CurrentPrincipal() principal: Principal): Promise<ModelDto> {
    return this.versions.reinstate(principal, id);
  }
}
