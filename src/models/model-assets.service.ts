import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Principal } from '../auth/principal.js';
import { AccessService } from '../access/access.service.js';
import { ApiError } from '../common/errors/api-error.js';
import { ModelAccessService } from './model-access.service.js';
import { ModelAssetEntity } from './model-asset.entity.js';
import { ModelEntity } from './model.entity.js';

export interface AssetFile {
  bytes: Buffer;
  contentType: string;
  /** The version it was read from; a version's files never change. */
  versionNumber: number;
}

/**
 * Images shipped in a model's zip: under /v1/models/{id}/assets/{path} for the
 * supplier's side, and under /v1/companies/{id}/models/{model_id}/assets/{path} for a
 * buyer (including a web shop's intent token), whose cart lines link there.
 */
@Injectable()
export class ModelAssetsService {
  constructor(
    @InjectRepository(ModelAssetEntity) private readonly assets: Repository<ModelAssetEntity>,
    @InjectRepository(ModelEntity) private readonly models: Repository<ModelEntity>,
    private readonly modelAccess: ModelAccessService,
    private readonly access: AccessService,
  ) {}

  async get(
    principal: Principal,
    modelId: number,
    path: string,
    versionNumber?: number,
  ): Promise<AssetFile> {
    const model = await this.modelAccess.requireReadable(principal, modelId);
    return this.read(model, path, versionNumber);
  }

  /** For a company the caller may see (checked by the route): its linked suppliers' models. */
  async getForCompany(
    companyId: number,
    modelId: number,
    path: string,
    versionNumber?: number,
  ): Promise<AssetFile> {
    const model = await this.models.findOneBy({ id: modelId });
    if (!model || !(await this.access.isLinked(companyId, model.supplierId))) {
      throw ApiError.notFound('No model found');
    }
    return this.read(model, path, versionNumber);
  }

  private async read(model: ModelEntity, path: string, versionNumber?: number): Promise<AssetFile> {
    const modelId = model.id;
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
