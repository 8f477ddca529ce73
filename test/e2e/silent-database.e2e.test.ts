import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSilenceableProxy, type SilenceableProxy } from '../../bench/faults/tcp-proxy.mjs';
import {
  bearer,
  expectEnvelope,
  loginAdmin,
  problemsOf,
  type TestUser,
} from '../support/factories.js';
import { sample } from '../support/prometheus-text.js';
import { createTestApp, type TestContext } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase } from '../support/test-database.js';

const onPostgres = Boolean(process.env.DATABASE_URL);

/**
 * A failover as the service sees it: every connection goes silent (no answer, no reset),
 * then the database is reachable again for new connections only.
 */
describe.runIf(onPostgres)('a database whose connections went silent', () => {
  let database: TestDatabase;
  let proxy: SilenceableProxy;
  let ctx: TestContext;
  let admin: TestUser;

  beforeAll(async () => {
    database = await createTestDatabase();
    const url = new URL(database.url!);
    proxy = await startSilenceableProxy(Number(url.port || 5432), url.hostname);
    url.host = `127.0.0.1:${proxy.port}`;
    ctx = await createTestApp(
      {
        DATABASE_URL: url.toString(),
        DATABASE_STATEMENT_TIMEOUT_MS: '500',
        DATABASE_ACQUIRE_TIMEOUT_MS: '1000',
        DATABASE_IDLE_TIMEOUT_MS: '1000',
      },
      database,
    );
    admin = await loginAdmin(ctx);
  });
  afterAll(async () => {
    // The silent connections end with the proxy's sockets; then the pool can close.
    await proxy?.close();
    await ctx?.close();
    await database?.drop();
  });

  it('answers 503 with a code while silent, and is ready and serving again once it is back', async () => {
    expectEnvelope(await ctx.http.get('/v1/users/me').set(bearer(admin.token)), 200);
    proxy.silence();
    const answers = await Promise.all(
      [1, 2, 3].map(() => ctx.http.get('/v1/users/me').set(bearer(admin.token))),
    );
    for (const res of answers) {
      expectEnvelope(res, 503);
      expect(problemsOf(res.body).map((p) => p.code)).toEqual([
        expect.stringMatching(/^database_(timeout|unavailable)$/),
      ]);
    }
    expectEnvelope(await ctx.http.get('/health/ready'), 503);
    // The waits for connections the database never gave are in the pool's acquire time, as
    // failed waits of about DATABASE_ACQUIRE_TIMEOUT_MS each: a hung pool is seen.
    const text = (await ctx.http.get('/metrics').expect(200)).text;
    const failed = { outcome: 'failed' };
    const count = sample(text, 'configurator_db_pool_acquire_seconds_count', failed) ?? 0;
    expect(count).toBeGreaterThan(0);
    expect(sample(text, 'configurator_db_pool_acquire_seconds_sum', failed)).toBeGreaterThan(0.9);

    proxy.restore();
    await expect
      .poll(async () => (await ctx.http.get('/health/ready')).status, {
        timeout: 20_000,
        interval: 250,
      })
      .toBe(200);
    await expect
      .poll(async () => (await ctx.http.get('/v1/users/me').set(bearer(admin.token))).status, {
        timeout: 20_000,
        interval: 250,
      })
      .toBe(200);
  });
});
