import { Module } from '@nestjs/common';
import { UsersModule } from '../users/users.module.js';
import { MembershipRepository } from './membership.repository.js';
import { MembershipsService } from './memberships.service.js';

/** Company and supplier memberships; their routes live with companies and suppliers. */
@Module({
  imports: [UsersModule],
  providers: [MembershipsService, MembershipRepository],
  exports: [MembershipsService],
})
export class MembershipsModule {}
