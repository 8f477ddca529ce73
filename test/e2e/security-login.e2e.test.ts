import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, expectEnvelope, loginAdmin, type TestUser } from '../support/factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

const someClient = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** docs/security.md, "Login limits": guessing stops, the owner is never locked out. */
describe('login limits without lockout', () => {
  let ctx: TestContext;
  let victim: TestUser;

  beforeAll(async () => {
    ctx = await createTestApp({ LOGIN_RATE_LIMIT: '5', TRUSTED_PROXIES: 'loopback' });
    victim = await createUser(ctx, await loginAdmin(ctx));
  });
  afterAll(() => ctx?.close());

  const attempt = (client: string, password: string) =>
    ctx.http
      .post('/v1/login')
      .set('X-Forwarded-For', client)
      .send({ email: victim.email, password });

  it('a lockout attempt from many addresses does not stop the owner from a clean client', async () => {
    const attackers = Array.from({ length: 30 }, someClient);
    const statuses: number[] = [];
    for (const client of attackers) {
      for (let i = 0; i < 3; i++) statuses.push((await attempt(client, `guess-${i}`)).status);
    }
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 403 || status === 429)).toBe(true);
    // Every attacking address is stopped now, even with the right password.
    expectEnvelope(await attempt(attackers[0], victim.password), 429);
    // The owner, from a client with no failures, still logs in.
    expectEnvelope(await attempt(someClient(), victim.password), 201);
  });

  it('stops one client guessing one email after LOGIN_RATE_LIMIT failures', async () => {
    const client = someClient();
    const email = `nobody-${randomInt(1e9)}@example.test`;
    const guess = (password: string) =>
      ctx.http.post('/v1/login').set('X-Forwarded-For', client).send({ email, password });
    for (let i = 0; i < 5; i++) expectEnvelope(await guess(`wrong-${i}`), 403);
    expectEnvelope(await guess('wrong-5'), 429);
  });
});

describe('X-Forwarded-For only from TRUSTED_PROXIES', () => {
  it('ignores X-Forwarded-For by default: rotating it does not escape the limit', async () => {
    const ctx = await createTestApp({ LOGIN_RATE_LIMIT: '3' });
    try {
      const email = 'nobody@example.test';
      const attempt = () =>
        ctx.http
          .post('/v1/login')
          .set('X-Forwarded-For', someClient())
          .send({ email, password: 'wrong-password' });
      for (let i = 0; i < 3; i++) expectEnvelope(await attempt(), 403);
      expectEnvelope(await attempt(), 429);
    } finally {
      await ctx.close();
    }
  });

  it('refuses an invalid TRUSTED_PROXIES at start-up', async () => {
    await expect(createTestApp({ TRUSTED_PROXIES: 'everyone' })).rejects.toThrow(/TRUSTED_PROXIES/);
    await expect(createTestApp({ TRUSTED_PROXIES: '10.0.0.0/99' })).rejects.toThrow(
      /TRUSTED_PROXIES/,
    );
  });
});
