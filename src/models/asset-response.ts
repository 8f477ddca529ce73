import { StreamableFile } from '@nestjs/common';
import type { Response } from 'express';
import type { AssetFile } from './model-assets.service.js';

// Images may be SVG: never sniffed, and rendered without scripts or outside requests.
const ASSET_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** An asset's bytes outside the envelope, with headers that keep SVG harmless. */
export function assetResponse(res: Response, file: AssetFile, versioned: boolean): StreamableFile {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', ASSET_CSP);
  // A version's files never change; the current version's may be replaced.
  res.setHeader(
    'Cache-Control',
    versioned ? 'private, max-age=86400, immutable' : 'private, no-cache',
  );
  return new StreamableFile(file.bytes, { type: file.contentType, length: file.bytes.length });
}

/** `/v1/companies/{id}/models/{model_id}/assets/{path}?version=n`: what cart lines link to. */
export function companyAssetUrl(
  companyId: number,
  modelId: number,
  versionNumber: number,
  path: string,
): string {
  const encoded = path.split('/').map(encodeURIComponent).join('/');
  return `/v1/companies/${companyId}/models/${modelId}/assets/${encoded}?version=${versionNumber}`;
}
