import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppConfig } from '../../src/config/app-config.js';

const SECRET = 'a-secret-that-is-long-enough-0123456789';

describe('AppConfig: fail fast on a bad environment', () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'config-test-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('uses SQLite under DATA_DIR by default, PostgreSQL when DATABASE_URL is set', () => {
    const dir = dataDir();
    const sqlite = new AppConfig({ DATA_DIR: dir, JWT_SECRET: SECRET });
    expect(sqlite.database).toMatchObject({
      type: 'sqlite',
      path: join(dir, 'configurator.sqlite'),
    });
    expect(sqlite.port).toBe(3000);
    const pg = new AppConfig({
      DATA_DIR: dir,
      JWT_SECRET: SECRET,
      DATABASE_URL: 'postgres://u@h:5432/db',
    });
    expect(pg.database).toMatchObject({
      type: 'postgres',
      url: 'postgres://u@h:5432/db',
      ssl: false,
    });
  });

  it('reads the database deadlines, the client query timeout 2 s past the statement timeout', () => {
    const defaults = new AppConfig({ DATA_DIR: dataDir(), JWT_SECRET: SECRET });
    expect(defaults.database.timeouts).toEqual({
      statementMs: 10_000,
      queryMs: 12_000,
      idleInTransactionMs: 10_000,
      acquireMs: 5_000,
      idleMs: 10_000,
      keepAliveMs: 10_000,
    });
    const set = new AppConfig({
      DATA_DIR: dataDir(),
      JWT_SECRET: SECRET,
      DATABASE_STATEMENT_TIMEOUT_MS: '3000',
      DATABASE_ACQUIRE_TIMEOUT_MS: '1000',
    });
    expect(set.database.timeouts).toMatchObject({
      statementMs: 3_000,
      queryMs: 5_000,
      acquireMs: 1_000,
    });
  });

  it('gives requests without a verified credential a quarter of the process by default', () => {
    const config = new AppConfig({
      DATA_DIR: dataDir(),
      JWT_SECRET: SECRET,
      SERVER_IN_FLIGHT_LIMIT: '64',
    });
    expect(config.admission).toMatchObject({ perClient: 16, total: 64, anonymous: 16 });
    const capped = new AppConfig({
      DATA_DIR: dataDir(),
      JWT_SECRET: SECRET,
      SERVER_IN_FLIGHT_LIMIT: '10',
      ANONYMOUS_IN_FLIGHT_LIMIT: '50',
    });
    expect(capped.admission.anonymous).toBe(10);
  });

  it('refuses to start in production without JWT_SECRET', () => {
    expect(() => new AppConfig({ NODE_ENV: 'production', DATA_DIR: dataDir() })).toThrow(
      /JWT_SECRET is required/,
    );
  });

  it('outside production generates a secret once and keeps it in DATA_DIR', () => {
    const dir = dataDir();
    const first = new AppConfig({ DATA_DIR: dir });
    const second = new AppConfig({ DATA_DIR: dir });
    expect(first.jwt.secret.length).toBeGreaterThanOrEqual(32);
    expect(second.jwt.secret).toBe(first.jwt.secret);
    expect(readFileSync(join(dir, 'jwt-secret'), 'utf8').trim()).toBe(first.jwt.secret);
  });

  it('lists every bad value at once', () => {
    const error = (() => {
      try {
        new AppConfig({
          DATA_DIR: dataDir(),
          JWT_SECRET: 'short',
          PORT: 'eighty',
          DATABASE_URL: 'mysql://x',
          ADMIN_EMAIL: 'a@b.c',
          LOG_LEVEL: 'loud',
        });
      } catch (e) {
        return e as Error;
      }
      throw new Error('expected the configuration to be refused');
    })();
    for (const name of ['JWT_SECRET', 'PORT', 'DATABASE_URL', 'ADMIN_PASSWORD', 'LOG_LEVEL']) {
      expect(error.message).toContain(name);
    }
  });

  it("holds ADMIN_PASSWORD to every account's password lengths", () => {
    const withPassword = (password: string) => () =>
      new AppConfig({
        DATA_DIR: dataDir(),
        JWT_SECRET: SECRET,
        ADMIN_EMAIL: 'admin@example.test',
        ADMIN_PASSWORD: password,
      });
    expect(withPassword('seven77')).toThrow(/ADMIN_PASSWORD must be 8 to 1024 characters long/);
    expect(withPassword('x'.repeat(1025))).toThrow(/ADMIN_PASSWORD must be 8 to 1024/);
    expect(withPassword('eight888')().admin?.password).toBe('eight888');
  });

  it('reads limits and lifetimes', () => {
    const config = new AppConfig({
      DATA_DIR: dataDir(),
      JWT_SECRET: SECRET,
      JWT_ACCESS_TTL: '60',
      MODEL_UPLOAD_LIMIT: '2048',
      LOGIN_RATE_LIMIT: '3',
    });
    expect(config.jwt.accessTtlSeconds).toBe(60);
    expect(config.engineLimits.uploadBytes).toBe(2048);
    expect(config.engineLimits.zipEntries).toBe(1000);
    expect(config.loginRateLimit).toEqual({ max: 3, windowSeconds: 60 });
  });

  it('reads the engine safety limits and the compile pool (issue #7)', () => {
    const defaults = new AppConfig({ DATA_DIR: dataDir(), JWT_SECRET: SECRET });
    expect(defaults.engineLimits).toMatchObject({
      expressionCost: 1_000_000,
      evaluationCost: 10_000_000,
      tableRows: 500_000,
    });
    expect(defaults.compiledModelCacheBytes).toBe(384 * 1024 * 1024);
    expect([defaults.compileWorkers, defaults.compileQueueSize]).toEqual([1, 8]);
    const config = new AppConfig({
      DATA_DIR: dataDir(),
      JWT_SECRET: SECRET,
      MODEL_EXPRESSION_COST_LIMIT: '5000',
      EVALUATION_COST_BUDGET: '50000',
      COMPILED_MODEL_CACHE_BYTES: String(64 * 1024 * 1024),
      COMPILE_WORKERS: '2',
      COMPILE_QUEUE_SIZE: '0',
      COMPILE_WORKER_HEAP_MB: '128',
      MODEL_CONSISTENCY_MS: '0',
      MODEL_CONSISTENCY_BYTES: String(64 * 1024 * 1024),
      MODEL_CONSISTENCY_STEPS: '1000000',
      MODEL_EXPLANATION_WORK: '5000',
    });
    expect(defaults.engineLimits).toMatchObject({
      consistencyMs: 30_000,
      consistencyBytes: 256 * 1024 * 1024,
      consistencySteps: 50_000_000,
      explanationWork: 1_000_000,
    });
    expect(config.engineLimits.consistencySteps).toBe(1_000_000);
    expect(config.engineLimits.explanationWork).toBe(5_000);
    expect([config.engineLimits.consistencyMs, config.engineLimits.consistencyBytes]).toEqual([
      0,
      64 * 1024 * 1024,
    ]);
    expect([config.engineLimits.expressionCost, config.engineLimits.evaluationCost]).toEqual([
      5000, 50000,
    ]);
    expect(config.compiledModelCacheBytes).toBe(64 * 1024 * 1024);
    expect([config.compileWorkers, config.compileQueueSize, config.compileWorkerHeapMb]).toEqual([
      2, 0, 128,
    ]);
    expect(
      () => new AppConfig({ DATA_DIR: dataDir(), JWT_SECRET: SECRET, COMPILE_WORKERS: '0' }),
    ).toThrow(/COMPILE_WORKERS/);
  });
});
