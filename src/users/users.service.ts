import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { AccessService } from '../access/access.service.js';
import { ApiError } from '../common/errors/api-error.js';
import { AppConfig } from '../config/app-config.js';
import { isUniqueViolation } from '../database/db-errors.js';
import type { CredentialKind, Principal, UserRole } from '../principal/principal.js';
import type { UpdateMeDto, UpdateUserDto } from './dto/update-user.dto.js';
import { UserDto, type CreateUserDto } from './dto/user.dto.js';
import { PasswordService } from './password.service.js';
import { UserRepository, type UserIdentity } from './user.repository.js';
import type { UserEntity } from './user.entity.js';
import { normalizeEmail } from '../common/validation/email-address.js';

export type NewUserInput = CreateUserDto & { role?: UserRole };
export type { UserIdentity };

type PrincipalExtra = Partial<Pick<Principal, 'companyId' | 'tokenId' | 'familyId'>>;

/** Logged at start-up on an empty database without ADMIN_EMAIL / ADMIN_PASSWORD. */
export const NO_USER_HINT =
  'No user exists and ADMIN_EMAIL / ADMIN_PASSWORD are not set, so no one can log in: ' +
  'restart with both set to create the first admin, or run ' +
  '`npm run cli -- create-user --email <email> --password-stdin --role admin`';

@Injectable()
export class UsersService implements OnApplicationBootstrap {
  private readonly logger = new Logger(UsersService.name);

  constructor(
    private readonly users: UserRepository,
    private readonly passwords: PasswordService,
    private readonly access: AccessService,
    private readonly config: AppConfig,
  ) {}

  /**
   * First admin from ADMIN_EMAIL / ADMIN_PASSWORD, when no user has that email yet. Without
   * them, an empty database gets a hint: every login would answer "Wrong email or password".
   */
  async onApplicationBootstrap(): Promise<void> {
    const admin = this.config.admin;
    if (!admin) {
      if (!(await this.users.hasAny())) this.logger.warn(NO_USER_HINT);
      return;
    }
    if (await this.users.existsByEmail(normalizeEmail(admin.email))) return;
    await this.insert({ email: admin.email, password: admin.password, role: 'admin' }).catch(
      (error) => {
        // Another instance starting at the same moment may have created it.
        if (!(error instanceof ApiError && error.getStatus() === 409)) throw error;
      },
    );
    this.logger.log(`Created admin ${admin.email}`);
  }

  /** POST /v1/users and the CLI: admins only. */
  async create(principal: Principal, input: NewUserInput): Promise<UserDto> {
    this.access.requireAdmin(principal);
    return UserDto.from(await this.insert(input));
  }

  async me(principal: Principal): Promise<UserDto> {
    const user = await this.users.findById(principal.userId);
    if (!user) throw ApiError.notFound('No such user');
    return UserDto.from(user);
  }

  /** PATCH /v1/users/me: one's name, or password (proving the current one). */
  async updateMe(principal: Principal, input: UpdateMeDto): Promise<UserDto> {
    const user = await this.users.findById(principal.userId);
    if (!user) throw ApiError.notFound('No such user');
    const changes: Partial<Pick<UserEntity, 'name' | 'passwordHash'>> = {};
    if (input.name !== undefined) changes.name = input.name || null;
    if (input.password !== undefined) {
      const current = input.current_password ?? '';
      if (!(await this.passwords.verifyOrWaste(user.passwordHash, current))) {
        throw ApiError.forbidden('The current password is wrong', [
          {
            code: 'invalid_current_password',
            message: 'The current password is wrong or missing',
            path: 'current_password',
          },
        ]);
      }
      changes.passwordHash = await this.passwords.hash(input.password);
    }
    if (Object.keys(changes).length > 0) await this.users.update(user.id, changes);
    return UserDto.from({ ...user, ...changes });
  }

  /**
   * PATCH /v1/users/{id} (admins): role and disabled. Ending the user's credentials is
   * the caller's (UserLifecycleService) part; answers the user as changed.
   */
  async administer(principal: Principal, id: number, input: UpdateUserDto): Promise<UserEntity> {
    this.access.requireUserAdministration(principal, id);
    const user = await this.users.findById(id);
    if (!user) throw ApiError.notFound('No such user');
    const changes: Partial<Pick<UserEntity, 'role' | 'disabledAt'>> = {};
    if (input.role !== undefined) changes.role = input.role;
    if (input.disabled !== undefined) {
      changes.disabledAt = input.disabled ? (user.disabledAt ?? new Date()) : null;
    }
    if (Object.keys(changes).length > 0) await this.users.update(id, changes);
    return { ...user, ...changes };
  }

  /**
   * The user with this email and password, or null; the same work either way, so that
   * an unknown email takes as long as a wrong password. A disabled user cannot log in
   * (the same answer as a wrong password).
   */
  async verifyCredentials(email: string, password: string): Promise<UserEntity | null> {
    const user = await this.users.findByEmail(email);
    const valid = await this.passwords.verifyOrWaste(user?.passwordHash ?? null, password);
    return user && valid && !user.disabledAt ? user : null;
  }

  find(id: number): Promise<UserEntity | null> {
    return this.users.findById(id);
  }

  findMany(ids: number[]): Promise<UserEntity[]> {
    return this.users.findByIds(ids);
  }

  /** Turns a verified credential into a Principal, checking that its user still exists. */
  async principalFor(
    userId: number,
    via: CredentialKind,
    extra: PrincipalExtra = {},
  ): Promise<Principal | false> {
    if (!Number.isInteger(userId)) return false;
    const user = await this.users.findIdentity(userId);
    return user ? this.principalOf(user, via, extra) : false;
  }

  /** As principalFor, for a user its caller has read already (with the session, say). */
  principalOf(
    user: UserIdentity,
    via: CredentialKind,
    extra: PrincipalExtra = {},
  ): Principal | false {
    // A disabled user's every credential stops at once, whatever its own state.
    if (user.disabled) return false;
    return {
      userId: user.id,
      email: user.email,
      role: user.role,
      via,
      companyId: extra.companyId ?? null,
      tokenId: extra.tokenId ?? null,
      familyId: extra.familyId ?? null,
    };
  }

  private async insert(input: NewUserInput): Promise<UserEntity> {
    try {
      return await this.users.insert({
        email: normalizeEmail(input.email),
        name: input.name ?? null,
        role: input.role ?? 'member',
        passwordHash: await this.passwords.hash(input.password),
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw ApiError.conflict('A user with that email exists', [
          { code: 'duplicate', message: 'A user with that email exists', path: 'email' },
        ]);
      }
      throw error;
    }
  }
}
