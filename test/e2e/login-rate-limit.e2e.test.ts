import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, unique } from '../support/factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

const REDIS_URL = 'redis://127.0.0.1:6379';

/** A client address of its own, so that per-client counters start at zero. */
const someClient = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
describe('login rate limit (memory store)', () => {
  let ctx: TestContext;

  const attempt = (email: string, client: string, password = 'wrong-password') =>
    ctx.http.post('/v1/login').set('X-Forwarded-For', client).send({ email, password });

  beforeAll(async () => {
    ctx = await createTestApp({
      LOGIN_RATE_LIMIT: '3',
      LOGIN_CLIENT_RATE_LIMIT: '6',
      TRUSTED_PROXIES: 'loopback',
    });
  });
  afterAll(() => ctx?.close());

  it('answers 429 with Retry-After on the 4th attempt for one email from one client', async () => {
    const email = `${unique('victim')}@example.test`;
    const client = someClient();
    for (let i = 0; i < 3; i++) expectEnvelope(await attempt(email, client), 403);
    const limited = await attempt(email, client);
    const body = expectEnvelope(limited, 429);
    expect(body.errors).toEqual([expect.objectContaining({ code: 'rate_limited' })]);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another email from a fresh client is not affected.
    expectEnvelope(await attempt(`${unique('other')}@example.test`, someClient()), 403);
  });

  it('once an email had too many failures, refuses every client, also fresh ones', async () => {
    const email = `${unique('victim')}@example.test`;
    const clients = [someClient(), someClient(), someClient()];
    for (const client of clients) expectEnvelope(await attempt(email, client), 403);
    // Each of them failed once only, but the email is over its limit: everyone stops.
    for (const client of clients) expectEnvelope(await attempt(email, client), 429);
    expectEnvelope(await attempt(email, someClient()), 429);
  });

  it('answers 429 from one client past LOGIN_CLIENT_RATE_LIMIT, whatever the email', async () => {
    const client = someClient();
    for (let i = 0; i < 6; i++) {
      expectEnvelope(await attempt(`${unique('spray')}@example.test`, client), 403);
    }
    const limited = await attempt(`${unique('spray')}@example.test`, client);
    expectEnvelope(limited, 429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
  });

  it('limits even the right password once the limit is reached', async () => {
    const client = someClient();
    for (let i = 0; i < 3; i++) expectEnvelope(await attempt('admin@example.test', client), 403);
    const right = await attempt('admin@example.test', client, 'admin-password-for-tests');
    expectEnvelope(right, 429);
  });
});

describe('login rate limit shared through Redis', () => {
  const apps: TestContext[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      apps.push(
        await createTestApp({ LOGIN_RATE_LIMIT: '3', REDIS_URL, TRUSTED_PROXIES: 'loopback' }),
      );
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('counts the attempts of two instances together', async () => {
    const [first, second] = apps;
    const email = `${unique('shared')}@example.test`;
    const client = someClient();
    const attempt = (app: TestContext) =>
      app.http
        .post('/v1/login')
        .set('X-Forwarded-For', client)
        .send({ email, password: 'wrong-password' });
    expectEnvelope(await attempt(first), 403);
    expectEnvelope(await attempt(second), 403);
    expectEnvelope(await attempt(first), 403);
    // Each instance saw at most two attempts itself; together they saw three.
    const limited = await attempt(second);
    expectEnvelope(limited, 429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expectEnvelope(await attempt(first), 429);
  });

  it('rotating addresses over two instances stop at the shared per-email limit', async () => {
    const [first, second] = apps;
    const email = `${unique('rotating')}@example.test`;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await (i % 2 ? second : first).http
        .post('/v1/login')
        .set('X-Forwarded-For', someClient())
        .send({ email, password: `guess-${i}` });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([403, 403, 403, 429, 429, 429]);
  });

  it('logs in, limited per process (not unlimited), when Redis is unreachable', async () => {
    const offline = await createTestApp({
      REDIS_URL: 'redis://127.0.0.1:1',
      LOGIN_RATE_LIMIT: '3',
    });
    try {
      const res = await offline.http
        .post('/v1/login')
        .send({ email: 'admin@example.test', password: 'admin-password-for-tests' });
      expectEnvelope(res, 201);
      const guess = () =>
        offline.http
          .post('/v1/login')
          .send({ email: 'admin@example.test', password: 'wrong-guess' });
      for (let i = 0; i < 3; i++) expectEnvelope(await guess(), 403);
      expectEnvelope(await guess(), 429);
    } finally {
      await offline.close();
    }
  });
});
