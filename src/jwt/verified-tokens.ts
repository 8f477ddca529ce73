import type { JwtClaims } from './jwt-claims.js';

/**
 * Access JWTs whose signature and claims were verified already, by the exact token text,
 * until they expire: a client sends the same access token with every request, and
 * verifying it again (base64 and JSON decoding twice, an HMAC) was about 6 % of the CPU
 * of a `GET /v1/carts/default` (docs/adr/0033-credentials-and-tokens.md).
 *
 * Only what verification proves is remembered (the signature with the app's key, the
 * algorithm, issuer, audience and claims): the session is still read on every request,
 * so that logout and reuse detection end a token at once. The key only changes with a
 * restart (JWT_SECRET). At most `capacity` tokens, the oldest forgotten first.
 */
export class VerifiedTokens {
  private readonly claims = new Map<string, JwtClaims & { exp: number }>();

  constructor(
    private readonly capacity: number,
    private readonly nowSeconds: () => number = () => Math.floor(Date.now() / 1000),
  ) {}

  /** The token's claims while it has not expired (jsonwebtoken's rule: now < exp). */
  get(token: string): JwtClaims | undefined {
    const claims = this.claims.get(token);
    if (claims === undefined) return undefined;
    if (this.nowSeconds() < claims.exp) return claims;
    this.claims.delete(token);
    return undefined;
  }

  /** Remembers the claims of a token verification just accepted (one with a numeric `exp`). */
  remember(token: string, claims: JwtClaims): void {
    if (typeof claims.exp !== 'number' || this.claims.has(token)) return;
    if (this.claims.size >= this.capacity) {
      const oldest = this.claims.keys().next();
      if (!oldest.done) this.claims.delete(oldest.value);
    }
    this.claims.set(token, { ...claims, exp: claims.exp });
  }

  get size(): number {
    return this.claims.size;
  }
}
