import { createHash, createHmac, type KeyObject, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Injectable } from '@nestjs/common';
import { bearerToken, handOverJwt } from '../jwt/bearer-jwt.js';
import type { JwtClaims } from '../jwt/jwt-claims.js';
import { VerifiedTokens } from '../jwt/verified-tokens.js';
import { clientAddress, clientKey, type TrustProxy } from '../rate-limit/client-key.js';

/** What admission can tell of a request's credential before the pipeline verifies it. */
export interface AdmissionKey {
  /** The count the request's allowance is kept under. */
  key: string;
  /** No verified credential: the request also counts against the anonymous share. */
  anonymous: boolean;
}

/** The JWT settings admission checks a token against (AppConfig.jwt). */
export interface JwtCheck {
  key: KeyObject;
  issuer: string;
  audience: string;
}

/** The header every token this service signs carries (HS256, docs/adr/0033). */
const JWT_PARTS = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/;
/** API token secrets (tokens/api-token-secret.ts's prefix). */
const API_TOKEN_PREFIX = 'cfg_';
/** A recognised API token counts as verified this long after the pipeline last accepted it. */
const RECOGNISED_FOR_MS = 10 * 60_000;
/** At most this many API tokens remembered (the oldest forgotten first): a few hundred kB. */
const RECOGNISED_CAPACITY = 4096;
/** JWTs remembered as verified, by their text, until they expire (a few MB at most). */
const VERIFIED_CAPACITY = 4096;

/**
 * API tokens the pipeline accepted lately, by the hash of their secret. An API token needs
 * the database to be verified, which admission cannot wait for; once the API-token strategy
 * has accepted it, its later requests count under the token instead of the client address.
 * Only the count depends on it: every request is still authenticated in the pipeline, so a
 * token revoked meanwhile is refused there as before.
 */
@Injectable()
export class RecognisedApiTokens {
  private readonly until = new Map<string, number>();
  /** The clock (a field, not a constructor parameter: Nest injects the constructor's). */
  now: () => number = Date.now;

  /** Called by the API-token strategy when it accepted `secret`. */
  accepted(secret: string): void {
    const hash = hashOf(secret);
    this.until.delete(hash);
    if (this.until.size >= RECOGNISED_CAPACITY) {
      const oldest = this.until.keys().next();
      if (!oldest.done) this.until.delete(oldest.value);
    }
    this.until.set(hash, this.now() + RECOGNISED_FOR_MS);
  }

  has(secret: string): boolean {
    const hash = hashOf(secret);
    const until = this.until.get(hash);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.until.delete(hash);
    return false;
  }
}

const hashOf = (secret: string): string => createHash('sha256').update(secret).digest('base64');

/**
 * The allowance a request counts under (docs/adr/0150-admission-keys-and-slow-bodies.md):
 * its credential when admission can tell it is genuine (a JWT whose HS256 signature, issuer,
 * audience, expiry and not-before hold, checked here in microseconds; an API token the
 * pipeline accepted lately), else its client address (an IPv6 /64 is one client). An
 * invented `Authorization` value is no credential: it counts under the address, in the
 * anonymous share.
 *
 * What it found of a bearer token goes to the JWT strategies with the request
 * (bearer-jwt.ts, docs/adr/0203): the signature is checked once per request, here, and
 * once per token while its claims are remembered (VerifiedTokens, the session is still
 * read on every request by the strategy).
 */
export class AdmissionKeys {
  private readonly nowSeconds: () => number;
  private readonly verified: VerifiedTokens;

  constructor(
    private readonly jwt: JwtCheck,
    private readonly apiTokens: RecognisedApiTokens,
    private readonly trust: TrustProxy,
    nowSeconds: () => number = () => Date.now() / 1000,
  ) {
    // jsonwebtoken's clock: whole seconds.
    this.nowSeconds = () => Math.floor(nowSeconds());
    this.verified = new VerifiedTokens(VERIFIED_CAPACITY, this.nowSeconds);
  }

  of(req: IncomingMessage): AdmissionKey {
    const token = bearerToken(req.headers.authorization);
    if (token !== null) {
      const apiToken = token.startsWith(API_TOKEN_PREFIX);
      const claims = apiToken ? null : this.jwtClaims(token);
      handOverJwt(req, token, claims);
      if (claims !== null || (apiToken && this.apiTokens.has(token)))
        return { key: `credential:${token}`, anonymous: false };
    }
    return { key: `address:${clientKey(clientAddress(req, this.trust))}`, anonymous: true };
  }

  /** The claims of a JWT this service signed and that holds now (jsonwebtoken's rules), or null. */
  private jwtClaims(token: string): JwtClaims | null {
    const known = this.verified.get(token);
    if (known !== undefined) return known;
    const parts = JWT_PARTS.exec(token);
    if (!parts) return null;
    const signature = Buffer.from(parts[3], 'base64url');
    const expected = createHmac('sha256', this.jwt.key).update(`${parts[1]}.${parts[2]}`).digest();
    if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) {
      return null;
    }
    const header = parseJson(parts[1]);
    const claims = parseJson(parts[2]);
    if (header?.alg !== 'HS256' || claims === null) return null;
    const audience = claims.aud;
    const now = this.nowSeconds();
    const holds =
      claims.iss === this.jwt.issuer &&
      (audience === this.jwt.audience ||
        (Array.isArray(audience) && audience.includes(this.jwt.audience))) &&
      typeof claims.exp === 'number' &&
      now < claims.exp &&
      (claims.nbf === undefined || (typeof claims.nbf === 'number' && claims.nbf <= now));
    if (!holds) return null;
    this.verified.remember(token, claims as unknown as JwtClaims);
    return claims as unknown as JwtClaims;
  }
}

function parseJson(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
