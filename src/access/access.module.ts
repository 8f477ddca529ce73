import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CompanyMemberEntity } from '../companies/company-member.entity.js';
import { CompanyEntity } from '../companies/company.entity.js';
import { CompanySupplierEntity } from '../suppliers/company-supplier.entity.js';
import { SupplierMemberEntity } from '../suppliers/supplier-member.entity.js';
import { SupplierEntity } from '../suppliers/supplier.entity.js';
import { AccessService } from './access.service.js';

/** Visibility and membership rules, available to every feature (and the global guard). */
@Global()
@Module({
  imports: [
    TypeOrmModule.forFeature([
      CompanyEntity,
      CompanyMemberEntity,
      SupplierEntity,
      SupplierMemberEntity,
      CompanySupplierEntity,
    ]),
  ],
  providers: [AccessService],
  exports: [AccessService],
})
export class AccessModule {}
