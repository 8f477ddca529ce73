import { Injectable } from '@nestjs/common';
import { AccessService } from '../access/access.service.js';
import { Page } from '../common/envelope/envelope.js';
import type { PageQueryDto } from '../common/pagination/page-query.dto.js';
import type { Principal } from '../principal/principal.js';
import { InvitationDto, type InvitationSentDto } from './dto/invitation.dto.js';
import { InvitationRepository } from './invitation.repository.js';
import { MembershipsService } from './memberships.service.js';
import { normalizeEmail } from '../common/validation/email-address.js';

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
  ) {}

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
      query.offset,
      query.per_page,
    );
    return new Page(rows.map(InvitationDto.from), query.page, query.per_page, total);
  }

  async accept(principal: Principal, id: number): Promise<InvitationDto> {
    const invitation = this.access.requireInvitee(principal, await this.invitations.findById(id));
    const now = new Date();
    await this.memberships.join(principal, { kind: 'company', id: invitation.companyId }, now);
    await this.invitations.markAccepted(invitation.id, now);
    return InvitationDto.from(invitation);
  }
}
