import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { SignedAsset } from '../engine-runtime/asset-urls.js';
import { Injectable } from '@nestjs/common';
import { AccessService } from '../access/access.service.js';
import { ApiError } from '../common/errors/api-error.js';
import type { Principal } from '../principal/principal.js';
import { chunkCount } from './asset-bytes.repository.js';
import type { ModelAssetEntity } from './model-asset.entity.js';
import type { ModelEntity } from './model.entity.js';
import { ModelRepository } from './model.repository.js';

/** An image found and allowed: what its answer says, and its bytes as a stream to open. */
export interface AssetFile {
  contentType: string;
  size: number;
  /** SHA-256 of the content, hex: the answer's ETag. */
  sha256: string;
  /** The version it was read from; a version's files never change. */
  versionNumber: number;
  /** The bytes, read chunk by chunk as the client takes them (never the whole image at once). */
  open(): Readable;
}

/**
 * Images shipped in a model's zip: under /v1/models/{id}/assets/{path} for the
 * supplier's side, and under /v1/companies/{id}/models/{model_id}/assets/{path} for a
 * buyer (including a web shop's intent token), whose cart lines link there.
 */
@Injectable()
export class ModelAssetsService {
  constructor(
    private readonly models: ModelRepository,
    private readonly access: AccessService,
  ) {}

  async get(
    principal: Principal,
    modelId: number,
    path: string,
    versionNumber?: number,
  ): Promise<AssetFile> {
    const model = await this.access.requireReadableModel(
      principal,
      await this.models.findById(modelId),
    );
    return this.read(model, path, versionNumber);
  }

  /** For a company the caller may see: the models of the suppliers it buys from. */
  async getForCompany(
    principal: Principal,
    companyId: number,
    modelId: number,
    path: string,
    versionNumber?: number,
  ): Promise<AssetFile> {
    const model = await this.access.requireCompanyModel(
      principal,
      companyId,
      await this.models.findById(modelId),
    );
    return this.read(model, path, versionNumber);
  }

  /** A file named by a signed URL (AssetUrls checked it): the version's, or 404. */
  async getSigned(asset: SignedAsset): Promise<AssetFile> {
    const file = await this.models.findAsset(asset.modelId, asset.versionNumber, asset.path);
    if (!file) throw ApiError.notFound('No such asset');
    return this.fileOf(file, asset.versionNumber);
  }

  private async read(model: ModelEntity, path: string, versionNumber?: number): Promise<AssetFile> {
    const version = versionNumber ?? model.versionNumber;
    const asset =
      version <= model.versionNumber ? await this.models.findAsset(model.id, version, path) : null;
    if (!asset) throw ApiError.notFound('No such asset');
    return this.fileOf(asset, version);
  }

  private fileOf(asset: ModelAssetEntity, versionNumber: number): AssetFile {
    const { contentType, size, sha256 } = asset;
    const models = this.models;
    async function* chunks(): AsyncGenerator<Buffer> {
      for (let seq = 0; seq < chunkCount(size); seq++) {
        const chunk = await models.findAssetChunk(sha256, seq);
        if (chunk === null) throw new Error(`Asset ${sha256} is missing chunk ${seq}`);
        yield chunk;
        // A turn of the event loop per chunk: SQLite reads synchronously and a loopback
        // socket may take every write at once, so without it one image would be read and
        // written whole before any other request (a 10 MB image: 153 chunks) is served.
        await nextTurn();
      }
    }
    // A byte stream holding one chunk at most: the next is read when the client took it.
    const open = () => Readable.from(chunks(), { objectMode: false, highWaterMark: 1 });
    return { contentType, size, sha256, versionNumber, open };
  }
}
