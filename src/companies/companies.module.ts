import { Module } from '@nestjs/common';
import { MembershipsModule } from '../memberships/memberships.module.js';
import { CompaniesController } from './companies.controller.js';
import { CompaniesService } from './companies.service.js';
import { CompanyMembersController } from './company-members.controller.js';
import { CompanyRepository } from './company.repository.js';

/** Companies (buyers) and their member routes. Their suppliers live in SuppliersModule. */
@Module({
  imports: [MembershipsModule],
  controllers: [CompaniesController, CompanyMembersController],
  providers: [CompaniesService, CompanyRepository],
  exports: [CompaniesService],
})
export class CompaniesModule {}
