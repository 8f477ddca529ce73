import { Injectable } from '@nestjs/common';
import { IntentsService } from '../intents/intents.service.js';
import type { Principal } from '../principal/principal.js';
import { TokensService } from '../tokens/tokens.service.js';
import type { UpdateMeDto, UpdateUserDto } from '../users/dto/update-user.dto.js';
import { UserDto } from '../users/dto/user.dto.js';
import { UsersService } from '../users/users.service.js';
import { SessionsService } from './sessions.service.js';

/**
 * PATCH /v1/users/{id}. Lives with the credentials because disabling a user ends every
 * one of them: sessions (here), API tokens and intent tokens (their features). The user
 * row is marked first, so every credential already fails in `principalFor`; the
 * revocations make that last if the user is enabled again.
 */
@Injectable()
export class UserLifecycleService {
  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly tokens: TokensService,
    private readonly intents: IntentsService,
  ) {}

  /** PATCH /v1/users/me; a new password also ends the caller's other sessions. */
  async updateMe(principal: Principal, input: UpdateMeDto): Promise<UserDto> {
    const user = await this.users.updateMe(principal, input);
    if (input.password !== undefined) {
      await this.sessions.endOthersOfUser(principal.userId, principal.familyId);
    }
    return user;
  }

  async update(principal: Principal, id: number, input: UpdateUserDto): Promise<UserDto> {
    const user = await this.users.administer(principal, id, input);
    if (input.disabled === true) {
      await this.sessions.endAllOfUser(id);
      await this.tokens.revokeAllOfUser(id);
      await this.intents.revokeAllOfUser(id);
    }
    return UserDto.from(user);
  }
}
