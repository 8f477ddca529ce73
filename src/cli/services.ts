import type { DataSource } from 'typeorm';
import { AccessRepository } from '../access/access.repository.js';
import { AccessService } from '../access/access.service.js';
import { CompanyRepository } from '../companies/company.repository.js';
import type { AppConfig } from '../config/app-config.js';
import { TransactionRunner } from '../database/transaction-runner.js';
import { InvitationRepository } from '../memberships/invitation.repository.js';
import { MembershipRepository } from '../memberships/membership.repository.js';
import { MembershipsService } from '../memberships/memberships.service.js';
import { SupplierRepository } from '../suppliers/supplier.repository.js';
import { PasswordService } from '../users/password.service.js';
import { UserRepository } from '../users/user.repository.js';
import { UsersService } from '../users/users.service.js';

/**
 * The app's own services and repositories over the CLI's data source, wired by hand:
 * the user and membership commands need these few, not the whole application.
 */
export type CliServices = ReturnType<typeof cliServices>;

export function cliServices(dataSource: DataSource, config: AppConfig) {
  const transactions = new TransactionRunner(dataSource);
  const access = new AccessService(new AccessRepository(dataSource));
  const userRows = new UserRepository(dataSource);
  const users = new UsersService(userRows, new PasswordService(), access, config);
  return {
    users,
    userRows,
    memberships: new MembershipsService(
      new MembershipRepository(dataSource),
      new InvitationRepository(dataSource),
      users,
      access,
    ),
    companies: new CompanyRepository(dataSource, transactions),
    suppliers: new SupplierRepository(dataSource, transactions),
  };
}
