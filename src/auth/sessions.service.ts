import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { ApiError } from '../common/errors/api-error.js';
import { AppConfig } from '../config/app-config.js';
import { TOKEN_TYPES, type JwtClaims } from '../jwt/jwt-claims.js';
import { TokenIssuer } from '../jwt/token-issuer.service.js';
import type { UserIdentity } from '../users/users.service.js';
import type { LoginResultDto } from './dto/login-result.dto.js';
import type { RefreshFamilyEntity } from './refresh-family.entity.js';
import { SessionRepository } from './session.repository.js';

/**
 * Login sessions (refresh-token families): start one, rotate its refresh token with
 * reuse detection, end it, and tell whether an access token's session is still live.
 */
@Injectable()
export class SessionsService {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly tokens: TokenIssuer,
    private readonly config: AppConfig,
  ) {}

  async start(userId: number): Promise<LoginResultDto> {
    const familyId = randomUUID();
    const jti = randomUUID();
    const expiresAt = new Date(Date.now() + this.config.jwt.refreshTtlSeconds * 1000);
    await this.sessions.insert({ id: familyId, userId, currentJti: jti, expiresAt });
    return this.issuePair(userId, familyId, jti, expiresAt, new Date());
  }

  /**
   * Exchanges the family's current refresh token for a new pair. The token just replaced
   * stays good for the grace window and answers the same pair (two tabs, a network
   * retry): the pair is signed with the rotation time as `iat`, so it is identical.
   * Any other older token of the family, or the replaced one after the window, means it
   * was stolen or replayed: the whole family is revoked.
   */
  async rotate(userId: number, familyId: string, presentedJti: string): Promise<LoginResultDto> {
    const family = await this.sessions.findById(familyId);
    if (!family || family.revokedAt || family.userId !== userId) throw invalidRefresh();
    const nextJti = randomUUID();
    // Whole seconds: `iat` has that resolution, and the replayed pair must match exactly.
    const rotatedAt = new Date(Math.floor(Date.now() / 1000) * 1000);
    if (await this.sessions.rotate(familyId, presentedJti, nextJti, rotatedAt)) {
      return this.issuePair(userId, familyId, nextJti, family.expiresAt, rotatedAt);
    }
    // Lost the compare-and-swap: the winner has committed, so this read sees its rotation.
    const now = await this.sessions.findById(familyId);
    if (now && !now.revokedAt && this.withinGrace(now, presentedJti)) {
      return this.issuePair(userId, familyId, now.currentJti, now.expiresAt, now.rotatedAt!);
    }
    await this.sessions.revoke(familyId, 'reuse_detected');
    throw invalidRefresh();
  }

  /** Disabling a user ends every session at once (their access JWTs stop with them). */
  endAllOfUser(userId: number): Promise<void> {
    return this.sessions.revokeAllOfUser(userId, 'user_disabled');
  }

  /** A new password ends the user's other sessions; the one that changed it goes on. */
  endOthersOfUser(userId: number, keepFamilyId: string | null): Promise<void> {
    return this.sessions.revokeAllOfUser(userId, 'password_changed', keepFamilyId);
  }

  private withinGrace(family: RefreshFamilyEntity, presentedJti: string): boolean {
    if (family.previousJti !== presentedJti || !family.rotatedAt) return false;
    return Date.now() - family.rotatedAt.getTime() < this.config.jwt.refreshGraceSeconds * 1000;
  }

  end(familyId: string): Promise<void> {
    return this.sessions.revoke(familyId, 'logout');
  }

  /**
   * The user of an access JWT whose session is live (null otherwise), read with the
   * session in one query: the access-token strategy makes its Principal from it. An access
   * JWT counts only while its session is live, so that logout and reuse detection end it
   * at once rather than when it expires.
   */
  async userOfAccess(claims: JwtClaims): Promise<UserIdentity | null> {
    if (claims.typ !== TOKEN_TYPES.access || !claims.fam) return null;
    const user = await this.sessions.userOfLive(claims.fam);
    return user && String(user.id) === claims.sub ? user : null;
  }

  /** The refresh token keeps the family's original expiry: rotation does not extend a session. */
  private async issuePair(
    userId: number,
    familyId: string,
    jti: string,
    expiresAt: Date,
    issuedAt: Date,
  ): Promise<LoginResultDto> {
    const iat = Math.floor(issuedAt.getTime() / 1000);
    const refreshTtl = Math.max(1, Math.floor(expiresAt.getTime() / 1000) - iat);
    return {
      access_token: await this.tokens.access(userId, familyId, iat),
      refresh_token: await this.tokens.refresh(userId, familyId, jti, refreshTtl, iat),
      token_type: 'Bearer',
      expires_in: this.config.jwt.accessTtlSeconds,
    };
  }
}

function invalidRefresh(): ApiError {
  return ApiError.unauthorized('The refresh token is invalid, used or revoked', [
    { code: 'invalid_refresh_token', message: 'The refresh token is invalid, used or revoked' },
  ]);
}
