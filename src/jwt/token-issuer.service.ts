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

  access(userId: number, familyId: string): Promise<string> {
    return this.sign(
      { sub: String(userId), typ: TOKEN_TYPES.access, fam: familyId },
      this.config.jwt.accessTtlSeconds,
    );
  }

  refresh(
    userId: number,
    familyId: string,
    jti: string,
    expiresInSeconds: number,
  ): Promise<string> {
    return this.sign(
      { sub: String(userId), typ: TOKEN_TYPES.refresh, fam: familyId, jti },
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
    return this.jwt.signAsync(
      { ...claims },
      {
        secret: this.config.jwt.secret,
        algorithm: JWT_ALGORITHM,
        issuer: this.config.jwt.issuer,
        audience: this.config.jwt.audience,
        expiresIn: expiresInSeconds,
      },
    );
  }
}
