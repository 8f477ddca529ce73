import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, expectEnvelope, loginAdmin, type TestUser } from '../support/factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

const someClient = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** docs/security.md, "Login limits": guessing stops, the owner's device is never locked out. */
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

  it("a lockout attempt from many addresses stops every guess; the owner's device still logs in", async () => {
    const attackers = Array.from({ length: 30 }, someClient);
    const statuses: number[] = [];
    for (const client of attackers) {
      for (let i = 0; i < 3; i++) statuses.push((await attempt(client, `guess-${i}`)).status);
    }
    // The per-email limit counts across all addresses: 5 guesses were checked, no more.
    expect(statuses.filter((status) => status === 403)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(85);
    // Every address is stopped now, even with the right password, fresh ones too.
    expectEnvelope(await attempt(attackers[0], victim.password), 429);
    expectEnvelope(await attempt(someClient(), victim.password), 429);
    // The owner, presenting the device token of an earlier login, logs in from anywhere.
    const owner = await ctx.http
      .post('/v1/login')
      .set('X-Forwarded-For', attackers[1])
      .send({ email: victim.email, password: victim.password, device_token: victim.deviceToken });
    expectEnvelope(owner, 201);
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
