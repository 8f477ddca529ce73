import type { Request } from 'express';
import { bearerToken } from '../../jwt/bearer-jwt.js';

/** The credential of `Authorization: Bearer <token>` (bearer-jwt.ts `bearerToken`). */
export function bearerFromHeader(req: Request): string | null {
  return bearerToken(req.headers?.authorization);
}

/** The refresh token, the one body credential (POST /v1/refresh and /v1/logout only). */
export function refreshTokenFromBody(req: Request): string | null {
  const body: unknown = req.body;
  if (typeof body !== 'object' || body === null) return null;
  const token: unknown = (body as Record<string, unknown>).refresh_token;
  return typeof token === 'string' && /^[\x21-\x7e]{1,4096}$/.test(token) ? token : null;
}
