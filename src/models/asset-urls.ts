import { createHmac, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';

/** What a signed asset URL names. */
export interface SignedAsset {
  companyId: number;
  modelId: number;
  versionNumber: number;
  /** The path inside the version's zip, decoded (`images/door.svg`). */
  path: string;
}

/**
 * Signed, short-lived URLs of a model version's files, for `<img src>` on a shop's page,
 * which cannot send an Authorization header: `/v1/assets/{company}/{model}/{version}/{path}
 * ?expires=<unix s>&signature=<base64url>`, an HMAC-SHA256 over company, model, version,
 * path and expiry, with a key derived from the JWT secret (the same on every instance).
 *
 * They are issued only with what the caller may see (a cart line, the company's model
 * list: AccessService decided there), so holding one is the permission to load that file
 * until it expires. The expiry is the end of the next window of ASSET_URL_TTL seconds: a
 * URL is valid for at least the TTL and at most twice it, and stays the same within a
 * window, so an unchanged cart keeps its ETag.
 */
@Injectable()
export class AssetUrls {
  private readonly key: Buffer;
  private readonly ttlSeconds: number;

  constructor(config: AppConfig) {
    this.key = createHmac('sha256', config.jwt.key).update('configurator asset URL v1').digest();
    this.ttlSeconds = config.assetUrlTtlSeconds;
  }

  /** The signed URL of `asset`, valid from `now` for at least the configured lifetime. */
  url(asset: SignedAsset, now = Date.now()): string {
    const seconds = Math.floor(now / 1000);
    const expires = (Math.floor(seconds / this.ttlSeconds) + 2) * this.ttlSeconds;
    const encoded = asset.path.split('/').map(encodeURIComponent).join('/');
    const where = `/v1/assets/${asset.companyId}/${asset.modelId}/${asset.versionNumber}`;
    return `${where}/${encoded}?expires=${expires}&signature=${this.signature(asset, expires)}`;
  }

  /** Why the URL does not open `asset` (`expired`, `invalid`), or null when it does. */
  refusal(asset: SignedAsset, expires: number, signature: string, now = Date.now()): string | null {
    const expected = Buffer.from(this.signature(asset, expires));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    return Math.floor(now / 1000) < expires ? null : 'expired';
  }

  private signature(asset: SignedAsset, expires: number): string {
    const text = [asset.companyId, asset.modelId, asset.versionNumber, asset.path, expires];
    return createHmac('sha256', this.key).update(text.join('\n')).digest('base64url');
  }
}
