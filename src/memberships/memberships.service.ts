import { Injectable } from '@nestjs/common';
import { AccessService } from '../access/access.service.js';
import { Page } from '../common/envelope/envelope.js';
import { ApiError } from '../common/errors/api-error.js';
import type { PageQueryDto } from '../common/pagination/page-query.dto.js';
import { isForeignKeyViolation, isUniqueViolation } from '../database/db-errors.js';
import type { Principal } from '../principal/principal.js';
import { UsersService } from '../users/users.service.js';
import { MemberDto } from './dto/member.dto.js';
import { InvitationRepository } from './invitation.repository.js';
import { MembershipRepository, type MembershipOwner } from './membership.repository.js';

const noSuchUser = () =>
  ApiError.notFound('No such user', [
    { code: 'not_found', message: 'No user has this id', path: 'user_id' },
  ]);

/**
 * Members of companies and suppliers. A company's members are managed by its members
 * and admins; a supplier's are added by admins and listed by its members and admins.
 */
@Injectable()
export class MembershipsService {
  constructor(
    private readonly memberships: MembershipRepository,
    private readonly invitations: InvitationRepository,
    private readonly users: UsersService,
    private readonly access: AccessService,
  ) {}

  /**
   * Adds a user to the owner's members: 404 unknown user, 409 already a member (the
   * composite primary key decides, so concurrent requests cannot both win). The owner
   * must exist (the caller's 404, checked first).
   */
  async add(principal: Principal, owner: MembershipOwner, userId: number): Promise<MemberDto> {
    // By id, admins only: anyone else invites by email, which reveals no account.
    this.access.requireAdmin(principal);
    if (owner.kind === 'company') await this.access.requireCompany(principal, owner.id);
    const user = await this.users.find(userId);
    if (!user) throw noSuchUser();
    const joinedAt = new Date();
    try {
      await this.memberships.insert(owner, userId, joinedAt);
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
    return MemberDto.from(user, joinedAt, this.access.mayReadEmailOf(principal, user.id));
  }

  /**
   * Accepting an invitation: the caller joins. Already a member is fine (the invitation
   * is spent either way). True when this call added the membership.
   */
  async join(principal: Principal, owner: MembershipOwner, joinedAt: Date): Promise<boolean> {
    try {
      await this.memberships.insert(owner, principal.userId, joinedAt);
      return true;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return false;
    }
  }

  /** Takes back a membership `join` just added (its invitation was withdrawn meanwhile). */
  async undoJoin(principal: Principal, owner: MembershipOwner): Promise<void> {
    await this.memberships.remove(owner, principal.userId);
  }

  /** DELETE …/members/{user_id}: admins, or the member leaving; 404 when not a member. */
  async remove(principal: Principal, owner: MembershipOwner, userId: number): Promise<void> {
    await this.access.requireMemberRemoval(principal, owner, userId);
    const notMember = () =>
      ApiError.notFound('No such member', [
        { code: 'not_found', message: 'This user is not a member', path: 'user_id' },
      ]);
    if (!(await this.memberships.exists(owner, userId))) throw notMember();
    if (owner.kind === 'company') {
      // A removal holds: the company's pending invitations to this user, and those the
      // user sent, go first. Withdrawn before the membership is deleted, so that an
      // invitation accepted meanwhile only re-adds a membership that is deleted next.
      const user = await this.users.find(userId);
      if (user) await this.invitations.withdrawPending(owner.id, user.email, userId);
    }
    if (!(await this.memberships.remove(owner, userId))) throw notMember();
  }

  /** One page of members, oldest user id first, with their email and name. */
  async list(
    principal: Principal,
    owner: MembershipOwner,
    query: PageQueryDto,
  ): Promise<Page<MemberDto>> {
    if (owner.kind === 'company') await this.access.requireCompany(principal, owner.id);
    else await this.access.requireSupplierMember(principal, owner.id);
    const [rows, total] = await this.memberships.page(owner, query.offset, query.per_page);
    const found = await this.users.findMany(rows.map((row) => row.userId));
    const byId = new Map(found.map((user) => [user.id, user]));
    const items = rows.flatMap((row) => {
      const user = byId.get(row.userId);
      return user
        ? [MemberDto.from(user, row.createdAt, this.access.mayReadEmailOf(principal, user.id))]
        : [];
    });
    return new Page(items, query.page, query.per_page, total);
  }
}
