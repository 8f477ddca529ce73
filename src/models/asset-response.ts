import { applyDecorators, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiProduces } from '@nestjs/swagger';
import { ApiErrors } from '../common/swagger/api-envelope.decorator.js';
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

/** Swagger for an asset route: the `path` wildcard, the image types, raw bytes. */
export function ApiAssetResponse(errors: number[] = [400, 401, 404]) {
  return applyDecorators(
    ApiParam({
      name: 'path',
      type: String,
      description: 'Path inside the zip, e.g. images/door.svg',
    }),
    ApiProduces('image/svg+xml', 'image/png', 'image/jpeg', 'image/gif', 'image/webp'),
    ApiOkResponse({ description: 'The file', schema: { type: 'string', format: 'binary' } }),
    ApiErrors(...errors),
  );
}

/** The wildcard `*path` param arrives as its segments (Express 5). */
export function joinAssetPath(path: string | string[]): string {
  return Array.isArray(path) ? path.join('/') : path;
}
