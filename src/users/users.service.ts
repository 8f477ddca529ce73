import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { PasswordService } from '../auth/password.service.js';
import { ApiError } from '../common/errors/api-error.js';
import { AppConfig } from '../config/app-config.js';
import { isUniqueViolation } from '../database/db-errors.js';
import type { CreateUserDto } from './dto/user.dto.js';
import { UserEntity, type UserRole } from './user.entity.js';

@Injectable()
export class UsersService implements OnApplicationBootstrap {
  private readonly logger = new Logger(UsersService.name);

  constructor(
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    private readonly passwords: PasswordService,
    private readonly config: AppConfig,
  ) {}

  /** First admin from ADMIN_EMAIL / ADMIN_PASSWORD, when no user has that email yet. */
  async onApplicationBootstrap(): Promise<void> {
    const admin = this.config.admin;
    if (!admin) return;
    const exists = await this.users.existsBy({ email: admin.email.toLowerCase() });
    if (exists) return;
    await this.create({ email: admin.email, password: admin.password, role: 'admin' }).catch(
      (error) => {
        // Another instance starting at the same moment may have created it.
        if (!(error instanceof ApiError && error.getStatus() === 409)) throw error;
      },
    );
    this.logger.log(`Created admin ${admin.email}`);
  }

  async create(input: CreateUserDto & { role?: UserRole }): Promise<UserEntity> {
    const user = this.users.create({
      email: input.email.trim().toLowerCase(),
      name: input.name ?? null,
      role: input.role ?? 'member',
      passwordHash: await this.passwords.hash(input.password),
    });
    try {
      return await this.users.save(user);
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw ApiError.conflict('A user with that email exists', [
          { code: 'duplicate', message: 'A user with that email exists', path: 'email' },
        ]);
      }
      throw error;
    }
  }

  async get(id: number): Promise<UserEntity> {
    const user = await this.users.findOneBy({ id });
    if (!user) throw ApiError.notFound('No such user');
    return user;
  }
}
