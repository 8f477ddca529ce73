import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { UserEntity } from '../users/user.entity.js';
import { CompanySupplierEntity } from './company-supplier.entity.js';
import { CompanySuppliersController } from './company-suppliers.controller.js';
import { SupplierMemberEntity } from './supplier-member.entity.js';
import { SupplierMembersController } from './supplier-members.controller.js';
import { SupplierEntity } from './supplier.entity.js';
import { SuppliersController } from './suppliers.controller.js';
import { SuppliersService } from './suppliers.service.js';

/** Suppliers, their members, and their links to the companies that buy from them. */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      SupplierEntity,
      SupplierMemberEntity,
      CompanySupplierEntity,
      UserEntity,
    ]),
  ],
  controllers: [SuppliersController, SupplierMembersController, CompanySuppliersController],
  providers: [SuppliersService],
  exports: [SuppliersService],
})
export class SuppliersModule {}
