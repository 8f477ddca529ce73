import { ApiProperty } from '@nestjs/swagger';
import { EmailAddress } from '../../common/validation/email-address.js';
import type { CompanyInvitationEntity } from '../company-invitation.entity.js';

/** Body of POST /v1/companies/{id}/invitations. */
export class InviteDto {
  @EmailAddress({ example: 'colleague@example.com' })
  email: string;
}

/**
 * The 202 answer of an invitation: only what the caller sent, whether or not an account
 * has the email, so the answer cannot tell.
 */
export class InvitationSentDto {
  @ApiProperty({ type: 'integer', format: 'int32', example: 1 }) company_id: number;
  @ApiProperty({
    example: 'new.buyer@dealer.example',
    description: 'The email as given (lower-cased)',
  })
  email: string;
}

/** A pending invitation, as its invitee sees it (GET /v1/invitations). */
export class InvitationDto {
  @ApiProperty() id: number;
  @ApiProperty() company_id: number;
  @ApiProperty({ example: '2026-11-22T10:00:00.000Z' }) created_at: string;
  @ApiProperty({
    example: '2026-12-06T10:00:00.000Z',
    description: 'It lapses then unless accepted (INVITATION_TTL_DAYS after it was sent)',
  })
  expires_at: string;

  static from(row: CompanyInvitationEntity, ttlMs: number): InvitationDto {
    return {
      id: row.id,
      company_id: row.companyId,
      created_at: row.createdAt.toISOString(),
      expires_at: new Date(row.createdAt.getTime() + ttlMs).toISOString(),
    };
  }
}
