import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import supertest from 'supertest';
import { AppModule } from '../../src/app.module.js';
import { configureApp } from '../../src/app.setup.js';
import { AppConfig } from '../../src/config/app-config.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

export const ADMIN_EMAIL = 'admin@example.test';
export const ADMIN_PASSWORD = 'admin-password-for-tests';

export interface TestContext {
  app: NestExpressApplication;
  http: supertest.Agent;
  config: AppConfig;
  database: TestDatabase;
  close(): Promise<void>;
}

/** The configuration every test app and service context runs with; `env` overrides it. */
export function testConfig(database: TestDatabase, env: Record<string, string> = {}): AppConfig {
  return new AppConfig({
    NODE_ENV: 'test',
    DATA_DIR: database.dataDir,
    JWT_SECRET: 'a-test-secret-that-is-long-enough-0123456789',
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    LOGIN_RATE_LIMIT: '1000',
    LOG_LEVEL: 'error',
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
}

/**
 * The real app (AppModule with its global guard, pipe, interceptor and filter) on a
 * database of its own (or `sharedDatabase`, to run several instances on one database).
 * `env` overrides configuration for one test file.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  sharedDatabase?: TestDatabase,
): Promise<TestContext> {
  const database = sharedDatabase ?? (await createTestDatabase());
  const config = testConfig(database, env);
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(AppConfig)
    .useValue(config)
    .compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({
    bodyParser: false,
    logger: ['error'],
  });
  configureApp(app);
  await app.init();
  return {
    app,
    http: supertest.agent(app.getHttpServer()),
    config,
    database,
    close: async () => {
      await app.close();
      // A database handed in belongs to the caller, who drops it.
      if (!sharedDatabase) await database.drop();
    },
  };
}
