import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { IsNull, Repository } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { AppConfig } from '../config/app-config.js';
import { RateLimiterService } from '../rate-limit/rate-limiter.service.js';
import { UserEntity } from '../users/user.entity.js';
import type { LoginResultDto } from './dto/login-result.dto.js';
import { PasswordService } from './password.service.js';
import type { Principal } from './principal.js';
import { RefreshFamilyEntity } from './refresh-family.entity.js';
import { TokenIssuer } from './token-issuer.service.js';

const BAD_CREDENTIALS = 'Wrong email or password';

/** Login, refresh-token rotation with reuse detection, and logout. */
@Injectable()
export class AuthService {
  constructor(
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    @InjectRepository(RefreshFamilyEntity)
    private readonly families: Repository<RefreshFamilyEntity>,
    private readonly passwords: PasswordService,
    private readonly tokens: TokenIssuer,
    private readonly rateLimiter: RateLimiterService,
    private readonly config: AppConfig,
  ) {}

  /** Same status, body and work for an unknown email and a wrong password. */
  async login(email: string, password: string, clientIp: string): Promise<LoginResultDto> {
    const normalizedEmail = email.trim().toLowerCase();
    const { max, windowSeconds } = this.config.loginRateLimit;
    await this.rateLimiter.consume(
      [`login:ip:${clientIp}`, `login:email:${normalizedEmail}`],
      max,
      windowSeconds,
    );

    const user = await this.users.findOneBy({ email: normalizedEmail });
    const valid = await this.passwords.verifyOrWaste(user?.passwordHash ?? null, password);
    if (!user || !valid) {
      throw new ApiError(HttpStatus.FORBIDDEN, BAD_CREDENTIALS, [
        { code: 'invalid_credentials', message: BAD_CREDENTIALS },
      ]);
    }
    return this.startSession(user.id);
  }

  /**
   * Exchanges the family's current refresh token for a new pair. An older token of the
   * family means it was stolen or replayed: the whole family is revoked.
   */
  async refresh(principal: Principal): Promise<LoginResultDto> {
    const familyId = principal.familyId ?? '';
    const presentedJti = String(principal.tokenId ?? '');
    const family = await this.families.findOneBy({ id: familyId });
    if (!family || family.revokedAt || family.userId !== principal.userId) {
      throw invalidRefresh();
    }
    const nextJti = randomUUID();
    // Compare-and-swap on the current jti: of two concurrent uses, only one wins.
    const swapped = await this.families.update(
      { id: familyId, currentJti: presentedJti, revokedAt: IsNull() },
      { currentJti: nextJti },
    );
    if (!swapped.affected) {
      await this.revokeFamily(familyId, 'reuse_detected');
      throw invalidRefresh();
    }
    return this.issuePair(principal.userId, familyId, nextJti, family.expiresAt);
  }

  async logout(principal: Principal): Promise<void> {
    if (principal.familyId) await this.revokeFamily(principal.familyId, 'logout');
  }

  private async startSession(userId: number): Promise<LoginResultDto> {
    const familyId = randomUUID();
    const jti = randomUUID();
    const expiresAt = new Date(Date.now() + this.config.jwt.refreshTtlSeconds * 1000);
    await this.families.insert(
      this.families.create({ id: familyId, userId, currentJti: jti, expiresAt, revokedAt: null }),
    );
    return this.issuePair(userId, familyId, jti, expiresAt);
  }

  /** The refresh token keeps the family's original expiry: rotation does not extend a session. */
  private async issuePair(
    userId: number,
    familyId: string,
    jti: string,
    expiresAt: Date,
  ): Promise<LoginResultDto> {
    const refreshTtl = Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
    return {
      access_token: await this.tokens.access(userId, familyId),
      refresh_token: await this.tokens.refresh(userId, familyId, jti, refreshTtl),
      token_type: 'Bearer',
      expires_in: this.config.jwt.accessTtlSeconds,
    };
  }

  private async revokeFamily(familyId: string, reason: string): Promise<void> {
    await this.families.update(
      { id: familyId, revokedAt: IsNull() },
      { revokedAt: new Date(), revokedReason: reason },
    );
  }
}

function invalidRefresh(): ApiError {
  return ApiError.unauthorized('The refresh token is invalid, used or revoked', [
    { code: 'invalid_refresh_token', message: 'The refresh token is invalid, used or revoked' },
  ]);
}
