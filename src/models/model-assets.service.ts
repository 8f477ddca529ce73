import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Principal } from '../auth/principal.js';
import { ApiError } from '../common/errors/api-error.js';
import { ModelAccessService } from './model-access.service.js';
import { ModelAssetEntity } from './model-asset.entity.js';

export interface AssetFile {
  bytes: Buffer;
  contentType: string;
  /** The version it was read from; a version's files never change. */
  versionNumber: number;
}

/** Images shipped in a model's zip, served under /v1/models/{id}/assets/{path}. */
@Injectable()
export class ModelAssetsService {
  constructor(
    @InjectRepository(ModelAssetEntity) private readonly assets: Repository<ModelAssetEntity>,
    private readonly modelAccess: ModelAccessService,
  ) {}

  async get(
    principal: Principal,
    modelId: number,
    path: string,
    versionNumber?: number,
  ): Promise<AssetFile> {
    const model = await this.modelAccess.requireReadable(principal, modelId);
    const version = versionNumber ?? model.versionNumber;
    const asset =
      version <= model.versionNumber
        ? await this.assets.findOneBy({ modelId, versionNumber: version, path })
        : null;
    if (!asset) throw ApiError.notFound('No such asset');
    return {
      bytes: Buffer.from(asset.contentBase64, 'base64'),
      contentType: asset.contentType,
      versionNumber: version,
    };
  }
}
