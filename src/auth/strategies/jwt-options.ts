import passportJwt, { type StrategyOptionsWithoutRequest } from 'passport-jwt';
import type { AppConfig } from '../../config/app-config.js';
import { JWT_ALGORITHM } from '../../jwt/jwt-claims.js';

export const { Strategy: JwtStrategyBase, ExtractJwt } = passportJwt;

/** Verification settings shared by every JWT kind: pinned algorithm, issuer, audience, expiry. */
export function jwtVerifyOptions(
  config: AppConfig,
  jwtFromRequest: StrategyOptionsWithoutRequest['jwtFromRequest'] = ExtractJwt.fromAuthHeaderAsBearerToken(),
): StrategyOptionsWithoutRequest {
  return {
    jwtFromRequest,
    secretOrKey: config.jwt.secret,
    algorithms: [JWT_ALGORITHM],
    issuer: config.jwt.issuer,
    audience: config.jwt.audience,
    ignoreExpiration: false,
  };
}
