import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { AssetUrlSigner, assetUrlKey } from './asset-url-signer.js';

export type { SignedAsset } from './asset-url-signer.js';

/**
 * The service's signer of asset URLs (AssetUrlSigner), keyed from the configuration: the
 * signed-asset route checks with it, stored lines are re-signed with it when read, and
 * the engine workers sign with the same settings (`signing`).
 */
@Injectable()
export class AssetUrls extends AssetUrlSigner {
  constructor(config: AppConfig) {
    super({ key: assetUrlKey(config.jwt.key), ttlSeconds: config.assetUrlTtlSeconds });
  }
}
