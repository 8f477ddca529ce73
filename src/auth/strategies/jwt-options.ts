import type { Request } from 'express';
import passportJwt, { type StrategyOptionsWithoutRequest } from 'passport-jwt';
import type { AppConfig } from '../../config/app-config.js';
import { handedOverJwt } from '../../jwt/bearer-jwt.js';
import { JWT_ALGORITHM, type JwtClaims } from '../../jwt/jwt-claims.js';
import type { Principal } from '../../principal/principal.js';
import { bearerFromHeader } from './credential-extractors.js';

export const { Strategy: JwtStrategyBase } = passportJwt;

/**
 * Verification settings shared by every JWT kind: pinned algorithm, issuer, audience,
 * expiry. jsonwebtoken accepts a token without `exp`: each strategy's validate refuses
 * it with `hasRequiredClaims`.
 */
export function jwtVerifyOptions(
  config: AppConfig,
  jwtFromRequest: StrategyOptionsWithoutRequest['jwtFromRequest'] = bearerFromHeader,
): StrategyOptionsWithoutRequest {
  return {
    jwtFromRequest,
    // passport-jwt hands the key to jsonwebtoken.verify as it is (lib/verify_jwt.js); its
    // types only say string | Buffer, but jsonwebtoken 9 takes a KeyObject without the
    // createPublicKey attempt a string costs (see AppConfig.jwt.key).
    secretOrKey: config.jwt.key as unknown as Buffer,
    algorithms: [JWT_ALGORITHM],
    issuer: config.jwt.issuer,
    audience: config.jwt.audience,
    ignoreExpiration: false,
  };
}

/** The calls a passport strategy ends a request's authentication with. */
interface StrategyOutcome {
  success(user: Principal): void;
  fail(status: number): void;
  error(error: Error): void;
}

/**
 * Authenticates with what admission found of the request's bearer JWT (docs/adr/0203),
 * without a second signature check: its claims go to `principalOf`, and a token admission
 * found not genuine fails at once. False when admission did not check this token: then
 * passport-jwt verifies it.
 */
export function authenticatedByAdmission(
  strategy: StrategyOutcome,
  req: Request,
  principalOf: (claims: JwtClaims) => Promise<Principal | false>,
): boolean {
  const token = bearerFromHeader(req);
  const claims = token === null ? undefined : handedOverJwt(req, token);
  if (claims === undefined) return false;
  if (claims === null) {
    strategy.fail(401);
    return true;
  }
  principalOf(claims).then(
    (principal) => (principal ? strategy.success(principal) : strategy.fail(401)),
    (error: unknown) => strategy.error(error as Error),
  );
  return true;
}
