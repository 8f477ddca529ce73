import { HttpStatus, Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import type { Principal } from '../principal/principal.js';
import { UsersService } from '../users/users.service.js';
import type { LoginResultDto } from './dto/login-result.dto.js';
import { LoginThrottle } from './login-throttle.service.js';
import { SessionsService } from './sessions.service.js';
import { normalizeEmail } from '../common/validation/email-address.js';

const BAD_CREDENTIALS = 'Wrong email or password';

/** Login, refresh-token rotation with reuse detection, and logout. */
@Injectable()
export class AuthService {
  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly throttle: LoginThrottle,
  ) {}

  /** Same status, body and work for an unknown email and a wrong password. */
  async login(email: string, password: string, clientIp: string): Promise<LoginResultDto> {
    const normalizedEmail = normalizeEmail(email);
    await this.throttle.check(clientIp, normalizedEmail);
    const user = await this.users.verifyCredentials(normalizedEmail, password);
    if (!user) {
      await this.throttle.failed(clientIp, normalizedEmail);
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
