import type { CorsOptions } from '@nestjs/common/interfaces/external/cors-options.interface.js';
import type { RequestHandler } from 'express';

/**
 * CORS for the origins in CORS_ORIGINS only (a web shop calling /v1/carts/** and
 * /v1/companies/** with an intent token). Credentials travel in the Authorization
 * header, never in cookies, so `credentials` stays off.
 */
export function corsOptions(origins: readonly string[]): CorsOptions {
  const allowed = new Set(origins);
  return {
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: [
      'Authorization',
      'Content-Type',
      'Idempotency-Key',
      'If-Match',
      'If-None-Match',
      'X-Request-Id',
      'Accept-Language',
    ],
    exposedHeaders: ['X-Request-Id', 'Retry-After', 'Idempotent-Replayed', 'Location', 'ETag'],
    credentials: false,
    maxAge: 600,
    optionsSuccessStatus: 204,
  };
}

/**
 * Every /v1 answer may carry tokens or tenant data: no cache may keep it. A route that
 * is cacheable (model assets) sets its own Cache-Control, which replaces this one.
 */
export const noStoreForApi: RequestHandler = (req, res, next) => {
  if (req.path.startsWith('/v1/') || req.path === '/v1') res.setHeader('Cache-Control', 'no-store');
  next();
};
