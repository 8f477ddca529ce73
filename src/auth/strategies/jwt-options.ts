import passportJwt, { type StrategyOptionsWithoutRequest } from 'passport-jwt';
import type { AppConfig } from '../../config/app-config.js';
import { JWT_ALGORITHM } from '../../jwt/jwt-claims.js';
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
