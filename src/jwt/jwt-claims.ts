import { isCanonicalId } from '../common/http/id-param.js';

/** The `typ` claim of each kind of JWT: a token of one kind is never accepted as another. */
export const TOKEN_TYPES = {
  access: 'access',
  refresh: 'refresh',
  intent: 'intent',
} as const;

export type TokenType = (typeof TOKEN_TYPES)[keyof typeof TOKEN_TYPES];

/** The only signing algorithm accepted. */
export const JWT_ALGORITHM = 'HS256';

export interface JwtClaims {
  sub: string;
  typ: TokenType;
  jti?: string;
  /** Refresh family id (refresh tokens). */
  fam?: string;
  /** Company id (intent tokens). */
  cid?: number;
  iat?: number;
  exp?: number;
}

/**
 * The claims every JWT must carry whatever its kind: the expected `typ`, a numeric `exp`
 * (a validly signed token without one is refused) and a user id as `sub`.
 */
export function hasRequiredClaims(claims: JwtClaims, typ: TokenType): boolean {
  return (
    claims.typ === typ &&
    typeof claims.exp === 'number' &&
    Number.isFinite(claims.exp) &&
    isCanonicalId(claims.sub)
  );
}
