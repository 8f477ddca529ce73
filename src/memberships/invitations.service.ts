import { Injectable } from '@nestjs/common';
import { AccessService } from '../access/access.service.js';
import { AppConfig } from '../config/app-config.js';
import { Page } from '../common/envelope/envelope.js';
import { ApiError } from '../common/errors/api-error.js';
import type { PageQueryDto } from '../common/pagination/page-query.dto.js';
import type { Principal } from '../principal/principal.js';
import { InvitationDto, type InvitationSentDto } from './dto/invitation.dto.js';
import { InvitationRepository } from './invitation.repository.js';
import { MembershipsService } from './memberships.service.js';
import { normalizeEmail } from '../common/validation/email-address.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Company invitations by email, with no account oracle: inviting never looks the email
 * up, so the answer, its shape and the work done are the same whether or not an account
 * has it. The invitee finds it by their own email and accepts it.
 */
@Injectable()
export class InvitationsService {
  constructor(
    private readonly invitations: InvitationRepository,
    private readonly memberships: MembershipsService,
    private readonly access: AccessService,
    private readonly config: AppConfig,
  ) {}

  /** How long an invitation stands (INVITATION_TTL_DAYS). */
  private get ttlMs(): number {
    return this.config.invitationTtlDays * DAY_MS;
  }

  /** Invitations sent before this instant have lapsed. */
  private lapsedBefore(now: Date): Date {
    return new Date(now.getTime() - this.ttlMs);
  }

  async invite(principal: Principal, companyId: number, email: string): Promise<InvitationSentDto> {
    // Whoever sees the company may invite (admins, its members); else 404.
    await this.access.requireCompany(principal, companyId);
    const normalized = normalizeEmail(email);
    await this.invitations.upsert(companyId, normalized, principal.userId);
    return { company_id: companyId, email: normalized };
  }

  async pending(principal: Principal, query: PageQueryDto): Promise<Page<InvitationDto>> {
    const [rows, total] = await this.invitations.pendingFor(
      principal.email,
      this.lapsedBefore(new Date()),
      query.offset,
      query.per_page,
    );
    const items = rows.map((row) => InvitationDto.from(row, this.ttlMs));
    return new Page(items, query.page, query.per_page, total);
  }

  async accept(principal: Principal, id: number): Promise<InvitationDto> {
    const now = new Date();
    const invitation = this.access.requireInvitee(
      principal,
      await this.invitations.findPending(id, this.lapsedBefore(now)),
    );
    const company = { kind: 'company', id: invitation.companyId } as const;
    const joined = await this.memberships.join(principal, company, now);
    if (!(await this.invitations.markAccepted(invitation.id, now))) {
      // No longer pending since it was read. Withdrawn (the invitee or its sender left or
      // was removed): the removal holds, so the membership this call added goes again.
      // Accepted by a concurrent request (a double click): the membership stands.
      const withdrawn = !(await this.invitations.exists(invitation.id));
      if (withdrawn && joined) await this.memberships.undoJoin(principal, company);
      throw ApiError.notFound('No invitation found');
    }
    return InvitationDto.from(invitation, this.ttlMs);
  }
}
