import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { IsNull, MoreThan, type DataSource, type Repository } from 'typeorm';
import { CompanyInvitationEntity } from './company-invitation.entity.js';

/** company_invitations; (company, email) is unique, so a second invitation is a no-op. */
@Injectable()
export class InvitationRepository {
  private readonly rows: Repository<CompanyInvitationEntity>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.rows = dataSource.getRepository(CompanyInvitationEntity);
  }

  /** Inserts the invitation, or reopens the existing one; the same statements either way. */
  async upsert(companyId: number, email: string, invitedById: number): Promise<void> {
    await this.rows.upsert(
      this.rows.create({ companyId, email, invitedById, acceptedAt: null, createdAt: new Date() }),
      { conflictPaths: ['companyId', 'email'] },
    );
  }

  /** Invitations to `email` neither accepted nor sent before `since` (lapsed). */
  pendingFor(email: string, since: Date, offset: number, limit: number) {
    return this.rows.findAndCount({
      where: { email, acceptedAt: IsNull(), createdAt: MoreThan(since) },
      order: { id: 'ASC' },
      skip: offset,
      take: limit,
    });
  }

  /** The invitation, unless it was accepted or sent before `since` (lapsed). */
  findPending(id: number, since: Date): Promise<CompanyInvitationEntity | null> {
    return this.rows.findOneBy({ id, acceptedAt: IsNull(), createdAt: MoreThan(since) });
  }

  /**
   * Deletes the company's pending invitations addressed to `email` or sent by
   * `invitedById` (a member leaving or removed: see MembershipsService.remove).
   */
  async withdrawPending(companyId: number, email: string, invitedById: number): Promise<void> {
    const pending = { companyId, acceptedAt: IsNull() };
    await this.rows.delete({ ...pending, email });
    await this.rows.delete({ ...pending, invitedById });
  }

  exists(id: number): Promise<boolean> {
    return this.rows.existsBy({ id });
  }

  /** False when the invitation is no longer pending (withdrawn, or accepted meanwhile). */
  async markAccepted(id: number, at: Date): Promise<boolean> {
    const result = await this.rows.update({ id, acceptedAt: IsNull() }, { acceptedAt: at });
    return Boolean(result.affected);
  }
}
