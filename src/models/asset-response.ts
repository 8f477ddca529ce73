import { pipeline } from 'node:stream';
import { applyDecorators, HttpStatus, Logger } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiProduces, ApiResponse } from '@nestjs/swagger';
import { ApiErrors } from '../common/swagger/api-envelope.decorator.js';
import type { Response } from 'express';
import type { AssetFile } from './model-assets.service.js';

// Images may be SVG: never sniffed, and rendered without scripts or outside requests.
const ASSET_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * How long a cache may keep an image: a signed URL names one version's file, which never
 * changes (`public`: the URL is the credential, as in an `<img src>`); a version named by
 * `?version=` too, for its caller; the current version's may be replaced (revalidated by
 * its ETag).
 */
export const ASSET_CACHE = {
  signed: 'public, max-age=31536000, immutable',
  versioned: 'private, max-age=86400, immutable',
  current: 'private, no-cache',
} as const;

const logger = new Logger('AssetResponse');

/**
 * Sends an asset outside the envelope, with headers that keep SVG harmless, its content
 * hash as a strong ETag (304 when If-None-Match has it) and its bytes streamed from the
 * database chunk by chunk as the client takes them.
 */
export function sendAsset(res: Response, file: AssetFile, cacheControl: string): void {
  const etag = `"${file.sha256}"`;
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', ASSET_CSP);
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('ETag', etag);
  if (matchesIfNoneMatch(res.req.headers['if-none-match'], etag)) {
    res.status(HttpStatus.NOT_MODIFIED).end();
    return;
  }
  res.setHeader('Content-Type', file.contentType);
  res.setHeader('Content-Length', String(file.size));
  res.status(HttpStatus.OK);
  if (res.req.method === 'HEAD') {
    res.end();
    return;
  }
  // pipeline destroys the source when the client goes away, and the response on an error.
  pipeline(file.open(), res, (error) => {
    if (error && !res.req.destroyed)
      logger.warn(`An asset stopped while being sent: ${String(error)}`);
  });
}

/** If-None-Match (a list of ETags, weak or strong, or `*`) naming `etag` (weak comparison). */
export function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
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
    ApiResponse({
      status: HttpStatus.NOT_MODIFIED,
      description: 'If-None-Match names the file’s ETag (its content hash): no body',
    }),
    ApiErrors(...errors),
  );
}

/** The wildcard `*path` param arrives as its segments (Express 5). */
export function joinAssetPath(path: string | string[]): string {
  return Array.isArray(path) ? path.join('/') : path;
}
