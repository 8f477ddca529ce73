import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { ApiError } from '../common/errors/api-error.js';
import { systemPrincipal, type UserRole } from '../principal/principal.js';
import { CreateUserDto, type UserDto } from '../users/dto/user.dto.js';
import type { UserEntity } from '../users/user.entity.js';
import type { UserRepository } from '../users/user.repository.js';
import { CliError, usageError } from './cli-error.js';
import type { CliServices } from './services.js';
import { normalizeEmail } from '../common/validation/email-address.js';

export interface NewUser {
  email: string;
  password: string;
  name?: string;
  role: UserRole;
}

/** The operator at the command line, before any user exists. */
const OPERATOR = systemPrincipal({ id: 0, email: 'cli' });

/**
 * Creates a user through UsersService, with the same validation as POST /v1/users
 * (email format, password length) and the same argon2id hashing.
 */
export async function createUser(services: CliServices, input: NewUser): Promise<UserDto> {
  const dto = plainToInstance(CreateUserDto, input);
  const errors = await validate(dto, { forbidUnknownValues: true });
  if (errors.length > 0) {
    const reasons = errors.flatMap((error) => Object.values(error.constraints ?? {}));
    throw usageError(`Invalid user: ${reasons.join('; ')}`);
  }
  try {
    return await services.users.create(OPERATOR, dto);
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
  services: CliServices,
  target: MembershipTarget,
  targetId: number,
  userRef: string,
): Promise<{ user: UserEntity; added: boolean; name: string }> {
  const user = await findUser(services.userRows, userRef);
  const owner =
    target === 'supplier'
      ? await services.suppliers.findById(targetId)
      : await services.companies.findById(targetId);
  if (!owner) throw new CliError(`No ${target} with id ${targetId}`);
  try {
    await services.memberships.add(OPERATOR, { kind: target, id: targetId }, user.id);
    return { user, added: true, name: owner.name };
  } catch (error) {
    if (error instanceof ApiError && error.getStatus() === 409) {
      return { user, added: false, name: owner.name };
    }
    throw asCliError(error);
  }
}

/** `--user 12` is an id, anything else an email (matched as stored, lower-cased). */
export async function findUser(users: UserRepository, ref: string): Promise<UserEntity> {
  const trimmed = ref.trim();
  const byId = /^\d+$/.test(trimmed);
  const user = byId
    ? await users.findById(Number(trimmed))
    : await users.findByEmail(normalizeEmail(trimmed));
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
