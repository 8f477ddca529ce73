import { Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, loginAdmin, type TestUser } from '../support/factories.js';
import { holdRequest, type HeldRequest } from '../support/held-requests.js';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createTestApp,
  listenOnFreePort,
  type TestContext,
} from '../support/test-app.js';

const BODY_TIMEOUT_MS = 1_500;
const ATTACKERS = 40;

describe('slow request bodies under invented credentials', () => {
  let ctx: TestContext;
  let base: string;
  let admin: TestUser;
  let tenant: TestUser;
  const agent = new Agent({ keepAlive: false });

  beforeAll(async () => {
    ctx = await createTestApp({
      // The defaults: 16 per client, 128 in total, a quarter of it anonymous.
      TRUSTED_PROXIES: 'loopback',
      BODY_READ_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
      BODY_MIN_RATE: '1000000',
    });
    base = await listenOnFreePort(ctx);
    admin = await loginAdmin(ctx);
    tenant = await createUser(ctx, admin);
  });
  afterAll(async () => {
    agent.destroy();
    await ctx?.close();
  });

  it('do not block another tenant, nor logins from elsewhere, and are cut at their deadline', async () => {
    const attacker = { 'X-Forwarded-For': '203.0.113.66' };
    const slow: HeldRequest[] = [];
    for (let i = 0; i < ATTACKERS; i++) {
      slow.push(
        await holdRequest(base, agent, '/v1/carts/preview', {
          ...attacker,
          Authorization: `Bearer invented-${i}`,
        }),
      );
    }

    // The attacker's address holds its 16; the other requests were refused at once.
    const refused = await Promise.race([
      Promise.all(slow.slice(16).map((request) => request.answered)),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 1_000)),
    ]);
    expect(refused).toEqual(new Array(ATTACKERS - 16).fill(429));

    // Meanwhile another tenant and a login from another address are served.
    expect((await ctx.http.get('/v1/users/me').set(bearer(tenant.token))).status).toBe(200);
    const login = await ctx.http
      .post('/v1/login')
      .set({ 'X-Forwarded-For': '198.51.100.1' })
      .send({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(login.status).toBe(201);

    // The admitted slow bodies are cut once their deadline passed: a 408, or the closed
    // connection when the client did not read it in time.
    const cut = await Promise.all(slow.slice(0, 16).map((request) => request.answered));
    for (const status of cut) expect([408, 0]).toContain(status);
    expect(cut).toContain(408);

    // Their slots are free again: the attacker's address is admitted (and answered).
    const after = await ctx.http.post('/v1/login').set(attacker).send({});
    expect(after.status).toBe(400);
    const metrics = await ctx.http.get('/metrics');
    expect(metrics.text).toMatch(/http_admission_refusals_total\{reason="body"\} 16\b/);
  });

  it('keeps a body that arrives at the minimum rate', async () => {
    const paced = await createTestApp({
      BODY_READ_TIMEOUT_MS: '600',
      BODY_MIN_RATE: '100',
    });
    try {
      const url = await listenOnFreePort(paced);
      // A login body with room to pace (JSON allows the spaces).
      const body = `{"email":"nobody@example.test",${' '.repeat(400)}"password":"${'x'.repeat(12)}"}`;
      const request = await holdRequest(url, agent, '/v1/login', {}, body);
      // 15 bytes every 100 ms (150 B/s) for 1.2 s, twice the first allowance.
      for (let i = 0; i < 12; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        request.sendMore(15);
      }
      expect(await request.finish()).toBe(403);
    } finally {
      await paced.close();
    }
  });
});
