import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiError } from '../common/errors/api-error.js';
import { IdParam } from '../common/http/id-param.js';
import { Public } from '../principal/auth.decorator.js';
import { ApiAssetResponse, ASSET_CACHE, joinAssetPath, sendAsset } from './asset-response.js';
import { AssetUrls } from '../engine-runtime/asset-urls.js';
import { SignedAssetQueryDto } from './dto/signed-asset-query.dto.js';
import { ModelAssetsService } from './model-assets.service.js';

@ApiTags('models')
@Controller('v1/assets')
export class SignedAssetsController {
  constructor(
    private readonly urls: AssetUrls,
    private readonly assets: ModelAssetsService,
  ) {}

  @Get(':companyId/:modelId/:version/*path')
  // The signature is the credential: an <img src> sends no Authorization header.
  @Public()
  @ApiOperation({
    summary: 'An image by a signed, short-lived URL (no Authorization; not in the envelope)',
    description:
      'The URLs in cart lines and in a company’s model list point here. They are signed ' +
      '(`signature`) and expire (`expires`, ASSET_URL_TTL): a page may put them in ' +
      '`<img src>`. A wrong signature or an expired URL is 403; ask for the line or the ' +
      'model list again for fresh URLs.',
  })
  @ApiParam({ name: 'companyId', description: 'The company the URL was issued to' })
  @ApiParam({ name: 'modelId', description: 'Model id' })
  @ApiParam({ name: 'version', description: 'Model version' })
  @ApiAssetResponse([400, 403, 404])
  async asset(
    @IdParam('companyId') companyId: number,
    @IdParam('modelId') modelId: number,
    @IdParam('version') versionNumber: number,
    @Param('path') path: string | string[],
    @Query() query: SignedAssetQueryDto,
    // Sent here, not by Nest: a 304 or a stream of chunks (asset-response.ts).
    @Res() res: Response,
  ): Promise<void> {
    const asset = { companyId, modelId, versionNumber, path: joinAssetPath(path) };
    const refusal = this.urls.refusal(asset, query.expires, query.signature);
    if (refusal === 'expired')
      throw ApiError.forbidden('This URL has expired', [
        {
          code: 'url_expired',
          message: 'ask for the line or the model list again',
          path: 'expires',
        },
      ]);
    if (refusal !== null)
      throw ApiError.forbidden('This URL is not valid', [
        { code: 'signature_invalid', message: 'the signature does not match', path: 'signature' },
      ]);
    // The signature is the credential: a shop's page on any origin may show the image.
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    sendAsset(res, await this.assets.getSigned(asset), ASSET_CACHE.signed);
  }
}
