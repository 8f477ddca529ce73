import type {
  CorsOptions,
  CorsOptionsDelegate,
} from '@nestjs/common/interfaces/external/cors-options.interface.js';
import type { Request, RequestHandler } from 'express';

/**
 * The paths an intent token may use (docs/api.md, "Calling from a browser"): a web shop's script needs
 * nothing else, so no other path answers a browser of another origin, whatever CORS_ORIGINS
 * says (a preflight for /v1/suppliers/1/models gets no Access-Control-* header).
 */
const CROSS_ORIGIN_PATHS = /^\/v1\/(?:carts|companies)(?:\/|$)/;

export function allowsCrossOrigin(path: string): boolean {
  return CROSS_ORIGIN_PATHS.test(path);
}

/** corsOptions for the intent token's paths, CORS off (origin: false) everywhere else. */
export function corsDelegate(origins: readonly string[]): CorsOptionsDelegate<Request> {
  const options = corsOptions(origins);
  const closed: CorsOptions = { origin: false };
  return (req, callback) => callback(null, allowsCrossOrigin(req.path) ? options : closed);
}

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
