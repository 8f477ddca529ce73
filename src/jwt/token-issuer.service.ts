import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { AppConfig } from '../config/app-config.js';
import { JWT_ALGORITHM, TOKEN_TYPES, type JwtClaims } from './jwt-claims.js';

/** Signs every kind of JWT the service issues, each with its own `typ` and lifetime. */
@Injectable()
export class TokenIssuer {
  constructor(
    private readonly jwt: JwtService,
    private readonly config: AppConfig,
  ) {}

  /** `iat` (seconds) given makes the token reproducible: the refresh grace window needs it. */
  access(userId: number, familyId: string, iat?: number): Promise<string> {
    return this.sign(
      { sub: String(userId), typ: TOKEN_TYPES.access, fam: familyId, iat },
      this.config.jwt.accessTtlSeconds,
    );
  }

  refresh(
    userId: number,
    familyId: string,
    jti: string,
    expiresInSeconds: number,
    iat?: number,
  ): Promise<string> {
    return this.sign(
      { sub: String(userId), typ: TOKEN_TYPES.refresh, fam: familyId, jti, iat },
      expiresInSeconds,
    );
  }

  intent(
    userId: number,
    companyId: number,
    jti: string,
    expiresInSeconds: number,
  ): Promise<string> {
    return this.sign(
      { sub: String(userId), typ: TOKEN_TYPES.intent, cid: companyId, jti },
      expiresInSeconds,
    );
  }

  private sign(claims: JwtClaims, expiresInSeconds: number): Promise<string> {
    // jsonwebtoken computes `exp` from a given `iat`; an undefined one means "now".
    const payload: Record<string, unknown> = { ...claims };
    if (payload.iat === undefined) delete payload.iat;
    return this.jwt.signAsync(payload, {
      // `privateKey` is typed jwt.Secret (KeyObject included), `secret` only string | Buffer;
      // @nestjs/jwt hands either to jsonwebtoken.sign unchanged. Same HS256 bytes as before.
      privateKey: this.config.jwt.key,
      algorithm: JWT_ALGORITHM,
      issuer: this.config.jwt.issuer,
      audience: this.config.jwt.audience,
      expiresIn: expiresInSeconds,
    });
  }
}
