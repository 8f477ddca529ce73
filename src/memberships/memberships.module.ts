import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { InvitationRepository } from './invitation.repository.js';
import { InvitationsController } from './invitations.controller.js';
import { InvitationsService } from './invitations.service.js';
import { MembershipRepository } from './membership.repository.js';
import { MembershipsService } from './memberships.service.js';

/**
 * Company and supplier memberships (their routes live with companies and suppliers) and
 * company invitations by email (their routes here).
 */
@Module({
  imports: [UsersModule],
  controllers: [InvitationsController],
  providers: [MembershipsService, MembershipRepository, InvitationsService, InvitationRepository],
  exports: [MembershipsService],
})
export class MembershipsModule {}
