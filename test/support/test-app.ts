import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import supertest from 'supertest';
import { AppModule } from '../../src/app.module.js';
import { configureApp } from '../../src/app.setup.js';
import { AppConfig } from '../../src/config/app-config.js';
import { AppLogger, createAppLogger, NestPinoLogger } from '../../src/logging/app-logger.js';
import type { LogCapture } from './log-capture.js';
import { recordResponses } from './response-recorder.js';
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

/** What the HTTP factories need: the app in-process, or the built server as a child process. */
export type HttpContext = Pick<TestContext, 'http'>;

/** The environment every test app, service context and test server runs with; `env` overrides it. */
export function testEnv(
  database: TestDatabase,
  env: Record<string, string> = {},
): Record<string, string> {
  return {
    NODE_ENV: 'test',
    DATA_DIR: database.dataDir,
    JWT_SECRET: 'a-test-secret-that-is-long-enough-0123456789',
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    LOGIN_RATE_LIMIT: '1000',
    LOG_LEVEL: 'error',
    ...(process.env.ENGINE_WORKER_ENTRY
      ? { ENGINE_WORKER_ENTRY: process.env.ENGINE_WORKER_ENTRY }
      : {}),
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ...env,
  };
}

/** The configuration every test app and service context runs with; `env` overrides it. */
export function testConfig(database: TestDatabase, env: Record<string, string> = {}): AppConfig {
  return new AppConfig(testEnv(database, env));
}

/** The app's JSON log into `logs`, or nowhere: test output stays readable. */
export function testLogger(config: AppConfig, logs?: LogCapture): AppLogger {
  return { pino: createAppLogger(config, logs?.stream ?? { write: () => undefined }) };
}

/**
 * The real app (AppModule with its global guard, pipe, interceptor and filter) on a
 * database of its own (or `sharedDatabase`, to run several instances on one database).
 * `env` overrides configuration for one test file; `options.logs` captures the log.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  sharedDatabase?: TestDatabase,
  options: { logs?: LogCapture } = {},
): Promise<TestContext> {
  const database = sharedDatabase ?? (await createTestDatabase());
  const config = testConfig(database, env);
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
    .overrideProvider(AppConfig)
    .useValue(config)
    .overrideProvider(AppLogger)
    .useValue(testLogger(config, options.logs))
    .compile();
  const app = moduleRef.createNestApplication<NestExpressApplication>({
    bodyParser: false,
    logger: ['error'],
  });
  // With a capture, Nest's own messages (errors from the filter) go to it as JSON too.
  if (options.logs) app.useLogger(new NestPinoLogger(app.get(AppLogger).pino));
  // First, so that it sees every answer, those of the body parser included.
  app.use(recordResponses());
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

/** Serves the test app on a free port of 127.0.0.1 (for real HTTP clients); its base URL. */
export async function listenOnFreePort(ctx: TestContext): Promise<string> {
  await ctx.app.listen(0, '127.0.0.1');
  const { port } = ctx.app.getHttpServer().address() as { port: number };
  return `http://127.0.0.1:${port}`;
}
