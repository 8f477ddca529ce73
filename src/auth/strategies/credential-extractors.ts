import type { Request } from 'express';

/** A bearer credential is one token of visible ASCII: anything else is no credential. */
const BEARER = /^Bearer ([\x21-\x7e]{1,4096})$/;

/**
 * The credential of `Authorization: Bearer <token>`, the only place credentials are read
 * from (never a query string, cookie or body field). Any odd value (an array, a number,
 * control characters, a second scheme) is null: an authentication failure, never a 500.
 */
export function bearerFromHeader(req: Request): string | null {
  const header: unknown = req.headers?.authorization;
  if (typeof header !== 'string') return null;
  const match = BEARER.exec(header);
  return match ? match[1] : null;
}

/** The refresh token, the one body credential (POST /v1/refresh and /v1/logout only). */
export function refreshTokenFromBody(req: Request): string | null {
  const body: unknown = req.body;
  if (typeof body !== 'object' || body === null) return null;
  const token: unknown = (body as Record<string, unknown>).refresh_token;
  return typeof token === 'string' && /^[\x21-\x7e]{1,4096}$/.test(token) ? token : null;
}
