import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShutdownState } from '../../src/shutdown/shutdown-state.js';
import { expectEnvelope, problemsOf } from '../support/factories.js';
import { LogCapture } from '../support/log-capture.js';
import { Redis } from 'ioredis';
import { startRedis } from '../support/processes.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createTestApp,
  type TestContext,
} from '../support/test-app.js';

describe('readiness needs the database; Redis is reported and its outage falls back to per-process limits', () => {
  const logs = new LogCapture();
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let ctx: TestContext;

  beforeAll(async () => {
    redis = await startRedis();
    ctx = await createTestApp(
      { REDIS_URL: redis.url, LOG_LEVEL: 'log', LOGIN_RATE_LIMIT: '3' },
      undefined,
      {
        logs,
      },
    );
  });
  afterAll(async () => {
    await ctx?.close();
    await redis?.stop();
  });

  const wrongPassword = (email: string) =>
    ctx.http.post('/v1/login').send({ email, password: 'not-the-password-at-all' });
  const fallbackGauge = async () =>
    /^configurator_rate_limit_fallback (\d)$/m.exec((await ctx.http.get('/metrics')).text)?.[1];

  it('is ready while the database and Redis answer, with shared limits', async () => {
    const res = await ctx.http.get('/health/ready');
    const body = expectEnvelope(res, 200);
    expect(body.data).toMatchObject({
      status: 'ok',
      database: expect.stringMatching(/sqlite|postgres/),
      rate_limits: 'shared',
      checks: { database: { status: 'up' }, redis: { status: 'up' } },
    });
    const login = await ctx.http
      .post('/v1/login')
      .send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(login.status).toBe(201);
    expect(await fallbackGauge()).toBe('0');
  });

  it('stays ready when Redis is killed, says so, keeps logins working and limits them per process', async () => {
    await redis.kill();
    const ready = await ctx.http.get('/health/ready');
    expect(expectEnvelope(ready, 200).data).toMatchObject({
      rate_limits: 'per-process',
      checks: { database: { status: 'up' }, redis: { status: 'down' } },
    });
    const login = await ctx.http
      .post('/v1/login')
      .send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(login.status).toBe(201);
    expect(await fallbackGauge()).toBe('1');
    expect(logs.lines().some((line) => /count per process/.test(String(line.msg)))).toBe(true);
    // Limits still hold, in this process: the fourth failure in the window is refused.
    const email = 'guessed-while-down@example.test';
    for (let i = 0; i < 3; i++) expect((await wrongPassword(email)).status).toBe(403);
    expect((await wrongPassword(email)).status).toBe(429);
    expectEnvelope(await ctx.http.get('/health/live'), 200);
  });

  it('shares the limits again once Redis is back', async () => {
    redis = await startRedis(redis.port);
    await expect.poll(fallbackGauge, { timeout: 10_000, interval: 200 }).toBe('0');
    const ready = await ctx.http.get('/health/ready');
    expect(expectEnvelope(ready, 200).data).toMatchObject({
      rate_limits: 'shared',
      checks: { redis: { status: 'up' } },
    });
    const email = 'guessed-after@example.test';
    for (let i = 0; i < 3; i++) expect((await wrongPassword(email)).status).toBe(403);
    expect((await wrongPassword(email)).status).toBe(429);
    // The counters are in Redis, where every instance sees them.
    const keys = await redisKeys(redis.port, `*${email}*`);
    expect(keys.length).toBeGreaterThan(0);
    expect(logs.lines().some((line) => /shared through Redis again/.test(String(line.msg)))).toBe(
      true,
    );
  });

  it('answers 503 at once when the instance starts draining (SIGTERM), while liveness stays 200', async () => {
    const draining = await createTestApp();
    try {
      expectEnvelope(await draining.http.get('/health/ready'), 200);
      draining.app.get(ShutdownState).startDraining();
      const ready = await draining.http.get('/health/ready');
      expectEnvelope(ready, 503);
      expect(problemsOf(ready.body)[0]).toMatchObject({ code: 'shutting_down' });
      expect(ready.headers.connection).toBe('close');
      expectEnvelope(await draining.http.get('/health/live'), 200);
    } finally {
      await draining.close();
    }
  });
});

async function redisKeys(port: number, pattern: string): Promise<string[]> {
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true });
  try {
    await client.connect();
    return await client.keys(pattern);
  } finally {
    client.disconnect();
  }
}
