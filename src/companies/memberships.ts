import { In, type FindOptionsOrder, type FindOptionsWhere, type Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { Page } from '../common/envelope/envelope.js';
import { ApiError } from '../common/errors/api-error.js';
import type { PageQueryDto } from '../common/pagination/page-query.dto.js';
import { isForeignKeyViolation, isUniqueViolation } from '../database/db-errors.js';
import type { UserEntity } from '../users/user.entity.js';
import { MemberDto } from './dto/member.dto.js';

/** What company_members and supplier_members rows have in common. */
export interface MembershipRow {
  userId: number;
  createdAt: Date;
}

const noSuchUser = () =>
  ApiError.notFound('No such user', [
    { code: 'not_found', message: 'No user has this id', path: 'user_id' },
  ]);

/**
 * Adds a user to a company's or supplier's members. The caller has already checked
 * that the company or supplier exists and may be managed; 404 unknown user, 409 already
 * a member (the composite primary key decides, so concurrent requests cannot both win).
 */
export async function addMember<T extends MembershipRow>(
  members: Repository<T>,
  users: Repository<UserEntity>,
  row: Omit<T, 'createdAt'>,
): Promise<MemberDto> {
  const user = await users.findOneBy({ id: row.userId });
  if (!user) throw noSuchUser();
  const membership = members.create({ ...row, createdAt: new Date() } as T);
  try {
    await members.insert(membership as QueryDeepPartialEntity<T>);
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw ApiError.conflict('The user is already a member', [
        { code: 'duplicate', message: 'The user is already a member', path: 'user_id' },
      ]);
    }
    // The user (or the company/supplier) was deleted since the check above.
    if (isForeignKeyViolation(error)) throw noSuchUser();
    throw error;
  }
  return MemberDto.from(user, membership.createdAt);
}

/** One page of members, oldest user id first, with their email and name. */
export async function listMembers<T extends MembershipRow>(
  members: Repository<T>,
  users: Repository<UserEntity>,
  where: FindOptionsWhere<T>,
  query: PageQueryDto,
): Promise<Page<MemberDto>> {
  const [rows, total] = await members.findAndCount({
    where,
    order: { userId: 'ASC' } as FindOptionsOrder<T>,
    skip: query.offset,
    take: query.per_page,
  });
  const found = rows.length ? await users.findBy({ id: In(rows.map((r) => r.userId)) }) : [];
  const byId = new Map(found.map((user) => [user.id, user]));
  const items = rows.flatMap((row) => {
    const user = byId.get(row.userId);
    return user ? [MemberDto.from(user, row.createdAt)] : [];
  });
  return new Page(items, query.page, query.per_page, total);
}
