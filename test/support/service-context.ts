import { Test, type TestingModule } from '@nestjs/testing';
import { AppModule } from '../../src/app.module.js';
import { AppConfig } from '../../src/config/app-config.js';
import { AppLogger } from '../../src/logging/app-logger.js';
import { systemPrincipal, type Principal } from '../../src/principal/principal.js';
import { UsersService } from '../../src/users/users.service.js';
import { unique } from './factories.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, testConfig, testLogger } from './test-app.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/**
 * The service tier: the real Nest module graph (AppModule: every service, repository
 * and the database, migrated) without HTTP, on a database of its own (SQLite, or
 * PostgreSQL with DATABASE_URL). No mocks: services are called as controllers call them.
 */
export interface ServiceContext {
  get<T>(type: new (...args: never[]) => T): T;
  /** The operator (as the CLI acts): a system principal, an admin. */
  operator: Principal;
  /** A new member user, as the principal a JWT of theirs yields. */
  newMember(): Promise<Principal>;
  database: TestDatabase;
  close(): Promise<void>;
}

export async function createServiceContext(): Promise<ServiceContext> {
  const database = await createTestDatabase();
  const config = testConfig(database);
  const moduleRef: TestingModule = await Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(AppConfig)
    .useValue(config)
    .overrideProvider(AppLogger)
    .useValue(testLogger(config))
    .setLogger({ log() {}, error() {}, warn() {} })
    .compile();
  await moduleRef.init();
  const get = <T>(type: new (...args: never[]) => T): T => moduleRef.get(type, { strict: false });
  // The operator acts as the admin the configuration bootstraps (recorded as uploader).
  const admin = await get(UsersService).verifyCredentials(ADMIN_EMAIL, ADMIN_PASSWORD);
  if (!admin) throw new Error('the configured admin was not created');
  const operator = systemPrincipal(admin);
  return {
    get,
    operator,
    database,
    async newMember() {
      const users = get(UsersService);
      const user = await users.create(operator, {
        email: `${unique('user')}@example.test`,
        password: 'a-member-password',
      });
      const principal = await users.principalFor(user.id, 'jwt');
      if (!principal) throw new Error('the new user has no principal');
      return principal;
    },
    async close() {
      await moduleRef.close();
      await database.drop();
    },
  };
}

/** The same user through an intent token of `companyId`. */
export const viaIntent = (principal: Principal, companyId: number): Principal => ({
  ...principal,
  via: 'intent',
  companyId,
});
