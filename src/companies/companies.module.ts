import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UserEntity } from '../users/user.entity.js';
import { CompaniesController } from './companies.controller.js';
import { CompaniesService } from './companies.service.js';
import { CompanyMemberEntity } from './company-member.entity.js';
import { CompanyMembersController } from './company-members.controller.js';
import { CompanyEntity } from './company.entity.js';

/** Companies (buyers) and their memberships. Their suppliers live in SuppliersModule. */
@Module({
  imports: [TypeOrmModule.forFeature([CompanyEntity, CompanyMemberEntity, UserEntity])],
  controllers: [CompaniesController, CompanyMembersController],
  providers: [CompaniesService],
  exports: [CompaniesService],
})
export class CompaniesModule {}
