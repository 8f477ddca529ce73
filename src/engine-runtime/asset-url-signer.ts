import { createHmac, timingSafeEqual, type KeyObject } from 'node:crypto';

/** What a signed asset URL names. */
export interface SignedAsset {
  companyId: number;
  modelId: number;
  versionNumber: number;
  /** The path inside the version's zip, decoded (`images/door.svg`). */
  path: string;
}

/** The signing settings an engine worker receives (workerData): plain data. */
export interface AssetUrlSigning {
  key: Uint8Array;
  ttlSeconds: number;
}

/** The HMAC key of asset URLs, derived from the JWT secret (the same on every instance). */
export function assetUrlKey(jwtKey: KeyObject): Uint8Array {
  return createHmac('sha256', jwtKey).update('configurator asset URL v1').digest();
}

/** A signed URL as it appears in an answer's JSON text (the path percent-encoded). */
const SIGNED_URL =
  /\/v1\/assets\/(\d+)\/(\d+)\/(\d+)\/([^?"\\\s]+)\?expires=\d+&signature=[A-Za-z0-9_-]+/g;

/**
 * Signed, short-lived URLs of a model version's files, for `<img src>` on a shop's page,
 * which cannot send an Authorization header: `/v1/assets/{company}/{model}/{version}/{path}
 * ?expires=<unix s>&signature=<base64url>`, an HMAC-SHA256 over company, model, version,
 * path and expiry (docs/adr/0049). Plain code with no framework: the engine workers sign
 * the URLs of the lines and descriptions they make, the main thread checks them.
 *
 * The expiry is the end of the next window of `ttlSeconds`: a URL is valid for at least
 * the TTL and at most twice it, and stays the same within a window, so an unchanged cart
 * keeps its ETag.
 */
export class AssetUrlSigner {
  constructor(readonly signing: AssetUrlSigning) {}

  /** The signed URL of `asset`, valid from `now` for at least the configured lifetime. */
  url(asset: SignedAsset, now = Date.now()): string {
    const ttl = this.signing.ttlSeconds;
    const expires = (Math.floor(Math.floor(now / 1000) / ttl) + 2) * ttl;
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

  /**
   * `json` (a stored line's text) with every signed URL in it signed again for `now`: a
   * snapshot keeps the URLs of its add time, which expire; its reader hands out fresh ones.
   * The text without URLs comes back as it is (no copy).
   */
  refreshed(json: Buffer, now = Date.now()): Buffer {
    if (json.indexOf('/v1/assets/') < 0) return json;
    const text = json
      .toString('utf8')
      .replace(
        SIGNED_URL,
        (_url, company: string, model: string, version: string, encoded: string) =>
          this.url(
            {
              companyId: Number(company),
              modelId: Number(model),
              versionNumber: Number(version),
              path: encoded.split('/').map(decodeURIComponent).join('/'),
            },
            now,
          ),
      );
    return Buffer.from(text, 'utf8');
  }

  private signature(asset: SignedAsset, expires: number): string {
    const text = [asset.companyId, asset.modelId, asset.versionNumber, asset.path, expires];
    return createHmac('sha256', this.signing.key).update(text.join('\n')).digest('base64url');
  }
}
