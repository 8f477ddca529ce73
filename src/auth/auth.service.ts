import { HttpStatus, Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { AppConfig } from '../config/app-config.js';
import type { Principal } from '../principal/principal.js';
import { RateLimiterService } from '../rate-limit/rate-limiter.service.js';
import { UsersService } from '../users/users.service.js';
import type { LoginResultDto } from './dto/login-result.dto.js';
import { SessionsService } from './sessions.service.js';

const BAD_CREDENTIALS = 'Wrong email or password';

/** Login, refresh-token rotation with reuse detection, and logout. */
@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
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
    const user = await this.users.verifyCredentials(normalizedEmail, password);
    if (!user) {
      throw new ApiError(HttpStatus.FORBIDDEN, BAD_CREDENTIALS, [
        { code: 'invalid_credentials', message: BAD_CREDENTIALS },
      ]);
    }
    return this.sessions.start(user.id);
  }

  refresh(principal: Principal): Promise<LoginResultDto> {
    return this.sessions.rotate(
      principal.userId,
      principal.familyId ?? '',
      String(principal.tokenId ?? ''),
    );
  }

  async logout(principal: Principal): Promise<void> {
    if (principal.familyId) await this.sessions.end(principal.familyId);
  }
}
