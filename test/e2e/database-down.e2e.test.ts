import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataSource } from 'typeorm';
import { bearer, expectEnvelope, loginAdmin, type TestUser } from '../support/factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/** docs/api.md: "503 database unavailable", never a bare 500. */
describe('database unavailable', () => {
  let ctx: TestContext;
  let admin: TestUser;

  beforeAll(async () => {
    ctx = await createTestApp();
    admin = await loginAdmin(ctx);
    // The connection goes away under a running app (a database restart, a lost network).
    await ctx.app.get(DataSource).destroy();
  });
  afterAll(() => ctx?.close());

  it('answers 503 with Retry-After on readiness and on routes that need the database', async () => {
    expectEnvelope(await ctx.http.get('/health/ready'), 503);
    const me = await ctx.http.get('/v1/users/me').set(bearer(admin.token));
    expectEnvelope(me, 503);
    expect(me.headers['retry-after']).toBe('5');
    expect(me.body.errors).toEqual([
      { code: 'database_unavailable', message: expect.stringMatching(/database/i) },
    ]);
    const login = await ctx.http.post('/v1/login').send({ email: admin.email, password: 'x' });
    expectEnvelope(login, 503);
    expect(login.body.errors.map((p: { code: string }) => p.code)).toEqual([
      'database_unavailable',
    ]);
    expect(JSON.stringify(login.body)).not.toMatch(/SELECT|sqlite|pg_|\\.ts|node_modules/i);
  });

  it('keeps answering liveness: the process itself is fine', async () => {
    expectEnvelope(await ctx.http.get('/health/live'), 200);
  });
});
