import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { DataSource, Repository } from 'typeorm';
import { PasswordService } from '../auth/password.service.js';
import { ApiError } from '../common/errors/api-error.js';
import { CompanyMemberEntity } from '../companies/company-member.entity.js';
import { CompanyEntity } from '../companies/company.entity.js';
import { addMember } from '../companies/memberships.js';
import type { AppConfig } from '../config/app-config.js';
import { SupplierMemberEntity } from '../suppliers/supplier-member.entity.js';
import { SupplierEntity } from '../suppliers/supplier.entity.js';
import { CreateUserDto } from '../users/dto/user.dto.js';
import { UserEntity, type UserRole } from '../users/user.entity.js';
import { UsersService } from '../users/users.service.js';
import { CliError, usageError } from './cli-error.js';

export interface NewUser {
  email: string;
  password: string;
  name?: string;
  role: UserRole;
}

/**
 * Creates a user through UsersService, with the same validation as POST /v1/users
 * (email format, password length) and the same argon2id hashing.
 */
export async function createUser(
  dataSource: DataSource,
  config: AppConfig,
  input: NewUser,
): Promise<UserEntity> {
  const dto = plainToInstance(CreateUserDto, input);
  const errors = await validate(dto, { forbidUnknownValues: true });
  if (errors.length > 0) {
    const reasons = errors.flatMap((error) => Object.values(error.constraints ?? {}));
    throw usageError(`Invalid user: ${reasons.join('; ')}`);
  }
  const users = new UsersService(
    dataSource.getRepository(UserEntity),
    new PasswordService(),
    config,
  );
  try {
    return await users.create(dto);
  } catch (error) {
    throw asCliError(error);
  }
}

export type MembershipTarget = 'supplier' | 'company';

/**
 * Adds a user to a supplier's or a company's members. Being a member already is not
 * an error: running the same provisioning script twice must succeed.
 */
export async function addMembership(
  dataSource: DataSource,
  target: MembershipTarget,
  targetId: number,
  userRef: string,
): Promise<{ user: UserEntity; added: boolean; name: string }> {
  const users = dataSource.getRepository(UserEntity);
  const user = await findUser(users, userRef);
  const owner =
    target === 'supplier'
      ? await dataSource.getRepository(SupplierEntity).findOneBy({ id: targetId })
      : await dataSource.getRepository(CompanyEntity).findOneBy({ id: targetId });
  if (!owner) throw new CliError(`No ${target} with id ${targetId}`);
  try {
    if (target === 'supplier') {
      await addMember(dataSource.getRepository(SupplierMemberEntity), users, {
        supplierId: targetId,
        userId: user.id,
      });
    } else {
      await addMember(dataSource.getRepository(CompanyMemberEntity), users, {
        companyId: targetId,
        userId: user.id,
      });
    }
    return { user, added: true, name: owner.name };
  } catch (error) {
    if (error instanceof ApiError && error.getStatus() === 409) {
      return { user, added: false, name: owner.name };
    }
    throw asCliError(error);
  }
}

/** `--user 12` is an id, anything else an email (matched as stored, lower-cased). */
export async function findUser(users: Repository<UserEntity>, ref: string): Promise<UserEntity> {
  const trimmed = ref.trim();
  const byId = /^\d+$/.test(trimmed);
  const user = byId
    ? await users.findOneBy({ id: Number(trimmed) })
    : await users.findOneBy({ email: trimmed.toLowerCase() });
  if (!user) throw new CliError(`No user with ${byId ? 'id' : 'email'} ${trimmed}`);
  return user;
}

/** The service's own errors (409 duplicate email, 404) become one readable line. */
function asCliError(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  const details = error.problems
    .map((problem) => problem.message)
    .filter((m) => m !== error.message);
  return new CliError([error.message, ...details].join(': '));
}
