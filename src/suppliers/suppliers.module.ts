import { Module } from '@nestjs/common';
import { MembershipsModule } from '../memberships/memberships.module.js';
import { CompanySuppliersController } from './company-suppliers.controller.js';
import { SupplierMembersController } from './supplier-members.controller.js';
import { SupplierRepository } from './supplier.repository.js';
import { SuppliersController } from './suppliers.controller.js';
import { SuppliersService } from './suppliers.service.js';

/** Suppliers, their member routes, and their links to the companies that buy from them. */
@Module({
  imports: [MembershipsModule],
  controllers: [SuppliersController, SupplierMembersController, CompanySuppliersController],
  providers: [SuppliersService, SupplierRepository],
  exports: [SuppliersService],
})
export class SuppliersModule {}
