import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { IsNull, type DataSource, type Repository } from 'typeorm';
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

  pendingFor(email: string, offset: number, limit: number) {
    return this.rows.findAndCount({
      where: { email, acceptedAt: IsNull() },
      order: { id: 'ASC' },
      skip: offset,
      take: limit,
    });
  }

  findById(id: number): Promise<CompanyInvitationEntity | null> {
    return this.rows.findOneBy({ id });
  }

  async markAccepted(id: number, at: Date): Promise<void> {
    await this.rows.update({ id }, { acceptedAt: at });
  }
}
