import {
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Auth } from '../principal/auth.decorator.js';
import { IdParam } from '../common/http/id-param.js';
import { CurrentPrincipal } from '../principal/current-principal.decorator.js';
import type { Principal } from '../principal/principal.js';
import { ResponseMessage } from '../common/envelope/response-message.decorator.js';
import { RawBody } from '../common/http/raw-body.decorator.js';
import { ApiEnvelope, ApiErrors } from '../common/swagger/api-envelope.decorator.js';
import { AppConfig } from '../config/app-config.js';
import { ApiAssetResponse, ASSET_CACHE, joinAssetPath, sendAsset } from './asset-response.js';
import { AssetQueryDto } from './dto/asset-query.dto.js';
import { ModelDetailDto, ModelDto } from './dto/model.dto.js';
import { ModelUploadDto } from './dto/model-upload.dto.js';
import { ModelAssetsService } from './model-assets.service.js';
import { LOCK_TTL_MS, modelEtag } from './model-lock.js';
import { ModelLockService } from './model-lock.service.js';
import { ModelsService } from './models.service.js';
import { MODEL_UPLOAD_BODY } from './upload/model-upload.openapi.js';
import { modelUploadBody, readModelUpload } from './upload/read-model-upload.js';
import { Idempotent } from '../idempotency/idempotent.decorator.js';

const LOCK_MINUTES = LOCK_TTL_MS / 60_000;

@ApiTags('models')
@Controller('v1/models')
export class ModelsController {
  constructor(
    private readonly models: ModelsService,
    private readonly locks: ModelLockService,
    private readonly assets: ModelAssetsService,
    private readonly config: AppConfig,
  ) {}

  @Get(':id')
  @Auth('jwt', 'api')
  @ResponseMessage('Model found')
  @ApiOperation({
    summary: 'A model with the full definition of its current version',
    description:
      'The ETag is the version number ("3"), with the edit lock\'s holder and expiry while ' +
      'someone holds it ("3-locked-7-<ms>"): either is accepted as If-Match on PUT, and ' +
      'If-None-Match answers 304 only while neither the version nor the lock changed.',
  })
  @ApiParam({ name: 'id', description: 'Model id' })
  @ApiEnvelope(ModelDetailDto)
  @ApiErrors(401, 404, 422)
  async get(
    @IdParam() id: number,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ModelDetailDto> {
    const model = await this.models.get(principal, id);
    res.setHeader('ETag', modelEtag(model));
    return model;
  }

  @Put(':id')
  @Auth('jwt', 'api')
  @RawBody()
  @Idempotent(modelUploadBody)
  @ResponseMessage('Model version created')
  @ApiOperation({
    summary: 'Upload a new version of a model (supplier members)',
    description:
      'Same formats as creating a model; stores version n+1 (versions are immutable). ' +
      '`If-Match: <version_number>` (also "3" or W/"3") refuses with 409 when the model ' +
      'has moved on; 423 while another user holds the edit lock.',
    requestBody: MODEL_UPLOAD_BODY,
  })
  @ApiParam({ name: 'id', description: 'Model id' })
  @ApiHeader({
    name: 'If-Match',
    required: false,
    description: 'The version the upload is based on, e.g. "3" (or the lock\'s ETag "3-locked-…")',
  })
  @ApiEnvelope(ModelUploadDto)
  @ApiErrors(400, 401, 403, 404, 409, 413, 415, 422, 423)
  async update(
    @IdParam() id: number,
    @Headers('if-match') ifMatch: string | undefined,
    @Req() req: Request,
    @CurrentPrincipal() principal: Principal,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ModelUploadDto> {
    const limit = this.config.engineLimits.uploadBytes;
    const model = await this.models.update(principal, id, ifMatch, () =>
      readModelUpload(req, limit),
    );
    res.setHeader('ETag', `"${model.version_number}"`);
    return model;
  }

  @Post(':id/lock')
  @HttpCode(200)
  @Auth('jwt', 'api')
  @ResponseMessage('Model locked')
  @ApiOperation({
    summary: 'Take the edit lock of a model (supplier members)',
    description:
      `While you hold it nobody else can upload a version (423). It lapses after ` +
      `${LOCK_MINUTES} minutes; taking it again renews it (200 as well).`,
  })
  @ApiParam({ name: 'id', description: 'Model id' })
  @ApiEnvelope(ModelDto)
  @ApiErrors(401, 403, 404, 423)
  lock(@IdParam() id: number, @CurrentPrincipal() principal: Principal): Promise<ModelDto> {
    return this.locks.lock(principal, id);
  }

  @Delete(':id/lock')
  @Auth('jwt', 'api')
  @ResponseMessage('Model unlocked')
  @ApiOperation({
    summary: 'Release the edit lock of a model',
    description:
      'Its holder or an admin may; 423 when another user holds it. Releasing a free lock ' +
      'changes nothing.',
  })
  @ApiParam({ name: 'id', description: 'Model id' })
  @ApiEnvelope(ModelDto)
  @ApiErrors(401, 403, 404, 423)
  unlock(@IdParam() id: number, @CurrentPrincipal() principal: Principal): Promise<ModelDto> {
    return this.locks.unlock(principal, id);
  }

  @Get(':id/assets/*path')
  @Auth('jwt', 'api')
  @ApiOperation({
    summary: "An image shipped in the model's zip (not wrapped in the envelope)",
    description: "The current version's file, or that of `?version=`.",
  })
  @ApiParam({ name: 'id', description: 'Model id' })
  @ApiAssetResponse()
  async asset(
    @IdParam() id: number,
    @Param('path') path: string | string[],
    @Query() query: AssetQueryDto,
    @CurrentPrincipal() principal: Principal,
    // Sent here, not by Nest: a 304 or a stream of chunks (asset-response.ts).
    @Res() res: Response,
  ): Promise<void> {
    const file = await this.assets.get(principal, id, joinAssetPath(path), query.version);
    sendAsset(res, file, query.version === undefined ? ASSET_CACHE.current : ASSET_CACHE.versioned);
  }
}
