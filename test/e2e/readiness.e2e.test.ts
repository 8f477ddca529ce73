import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShutdownState } from '../../src/shutdown/shutdown-state.js';
import { expectEnvelope, problemsOf } from '../support/factories.js';
import { LogCapture } from '../support/log-capture.js';
import { startRedis } from '../support/processes.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createTestApp,
  type TestContext,
} from '../support/test-app.js';

describe('readiness checks every dependency (database, Redis when configured)', () => {
  const logs = new LogCapture();
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let ctx: TestContext;

  beforeAll(async () => {
    redis = await startRedis();
    ctx = await createTestApp({ REDIS_URL: redis.url, LOG_LEVEL: 'log' }, undefined, { logs });
  });
  afterAll(async () => {
    await ctx?.close();
    await redis?.stop();
  });

  it('is ready while the database and Redis answer', async () => {
    const res = await ctx.http.get('/health/ready');
    const body = expectEnvelope(res, 200);
    expect(body.data).toMatchObject({
      status: 'ok',
      database: expect.stringMatching(/sqlite|postgres/),
      checks: { database: { status: 'up' }, redis: { status: 'up' } },
    });
    const login = await ctx.http
      .post('/v1/login')
      .send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(login.status).toBe(201);
  });

  it('answers 503 naming Redis once Redis is stopped, as logins do, and logs it under the request id', async () => {
    await redis.stop();
    const ready = await ctx.http.get('/health/ready');
    expectEnvelope(ready, 503);
    expect(problemsOf(ready.body).map((p) => p.code)).toEqual(['redis_unavailable']);
    expect(ready.headers['retry-after']).toBe('5');
    const login = await ctx.http
      .post('/v1/login')
      .set('X-Request-Id', 'login-without-redis')
      .send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(login.status).toBe(503);
    const lines = logs.lines().filter((line) => line.request_id === 'login-without-redis');
    // the rate limiter's error line and the request line, both with the id
    expect(lines.some((line) => /Rate-limit store unavailable/.test(String(line.msg)))).toBe(true);
    expect(lines.find((line) => line.route === '/v1/login')).toMatchObject({
      status: 503,
      level: 'error',
    });
    expectEnvelope(await ctx.http.get('/health/live'), 200);
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
