import type { JwtClaims } from './jwt-claims.js';

/** `Bearer <token>`: one token of visible ASCII. Anything else is no credential. */
const BEARER = /^Bearer ([\x21-\x7e]{1,4096})$/;

/**
 * The credential of an `Authorization: Bearer <token>` header, the only place credentials
 * are read from (never a query string, cookie or body field). Any odd value (an array, a
 * number, control characters, a second scheme) is null: an authentication failure, never a 500.
 */
export function bearerToken(header: unknown): string | null {
  if (typeof header !== 'string') return null;
  const match = BEARER.exec(header);
  return match ? match[1] : null;
}

/**
 * Where admission leaves what it found of a request's bearer token (docs/adr/0203): a
 * symbol, so no header, body or query can set it, on the request object itself, so it
 * lives exactly as long as the request.
 */
const ADMISSION_VERDICT = Symbol('admission’s verdict on the bearer token');

interface Verdict {
  readonly token: string;
  /** The JWT's claims when its signature and claims hold; null when it is no such JWT. */
  readonly claims: JwtClaims | null;
}

type WithVerdict = { [ADMISSION_VERDICT]?: Verdict };

/** Admission checked `token`, the request's bearer credential: a genuine JWT's claims, or null. */
export function handOverJwt(req: object, token: string, claims: JwtClaims | null): void {
  (req as WithVerdict)[ADMISSION_VERDICT] = { token, claims };
}

/**
 * What admission found of `token` on this request: the claims of a genuine JWT, null for a
 * token that is none, undefined when admission did not check this token (then verify it).
 */
export function handedOverJwt(req: object, token: string): JwtClaims | null | undefined {
  const verdict = (req as WithVerdict)[ADMISSION_VERDICT];
  return verdict?.token === token ? verdict.claims : undefined;
}
