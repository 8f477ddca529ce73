import { HttpStatus, Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import type { Principal } from '../principal/principal.js';
import { UsersService } from '../users/users.service.js';
import type { LoginAnswerDto, LoginResultDto } from './dto/login-result.dto.js';
import { DeviceTokensService } from './device-tokens.service.js';
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
    private readonly devices: DeviceTokensService,
  ) {}

  /**
   * Same status, body and work for an unknown email and a wrong password. A live device
   * token of the account (`deviceToken`) exempts the login from the per-email and
   * per-client limits (LoginThrottle); a successful login answers a new one.
   */
  async login(
    email: string,
    password: string,
    clientIp: string,
    deviceToken?: string,
  ): Promise<LoginAnswerDto> {
    const normalizedEmail = normalizeEmail(email);
    const presented = await this.devices.trusted(deviceToken, normalizedEmail);
    const device = await this.throttle.check(clientIp, normalizedEmail, presented);
    const user = await this.users.verifyCredentials(normalizedEmail, password);
    if (!user) {
      await this.throttle.failed(clientIp, normalizedEmail, device);
      throw new ApiError(HttpStatus.FORBIDDEN, BAD_CREDENTIALS, [
        { code: 'invalid_credentials', message: BAD_CREDENTIALS },
      ]);
    }
    const tokens = await this.sessions.start(user.id);
    return { ...tokens, device_token: await this.devices.issue(user.id, presented) };
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
