import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectEnvelope, loginAdmin, type TestUser } from '../support/factories.js';
import { LogCapture } from '../support/log-capture.js';
import { createApiToken, createCompany, createIntent } from '../support/org.factories.js';
import { ADMIN_PASSWORD, createTestApp, type TestContext } from '../support/test-app.js';

type Line = Record<string, unknown>;

describe('logs: JSON lines with request ids, no secrets', () => {
  const logs = new LogCapture();
  let ctx: TestContext;
  let admin: TestUser;

  beforeAll(async () => {
    ctx = await createTestApp({ LOG_LEVEL: 'debug' }, undefined, { logs });
    admin = await loginAdmin(ctx);
  });
  afterAll(() => ctx?.close());

  const requestLines = (id: string): Line[] =>
    logs.lines().filter((line) => line.request_id === id && line.route !== undefined);

  it('one line per request with method, route pattern, status, duration, request id and user id', async () => {
    const company = await createCompany(ctx, admin);
    const res = await ctx.http
      .get(`/v1/companies/${company.id}?page=1`)
      .set(bearer(admin.token))
      .set('X-Request-Id', 'shop-order-4711');
    expectEnvelope(res, 200);
    expect(res.headers['x-request-id']).toBe('shop-order-4711');
    const lines = requestLines('shop-order-4711');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'info',
      method: 'GET',
      route: '/v1/companies/:id',
      status: 200,
      user_id: admin.id,
      request_id: 'shop-order-4711',
    });
    expect(lines[0].duration_ms).toEqual(expect.any(Number));
    expect(JSON.stringify(lines[0])).not.toContain('page=1');
  });

  it('generates a request id when none (or an unusable one) is sent, and returns it on errors too', async () => {
    const plain = await ctx.http.get('/v1/companies/999999').set(bearer(admin.token));
    expect(plain.status).toBe(404);
    expect(plain.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    for (const bad of ['x'.repeat(129), 'with space', 'quote"d', '{"json":1}']) {
      const res = await ctx.http.get('/health/live').set('X-Request-Id', bad);
      expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(requestLines(String(plain.headers['x-request-id']))[0]).toMatchObject({ status: 404 });
  });

  it('every line written while serving a request carries its id (errors included)', async () => {
    // A 500 from deep inside: the filter logs the error, the client gets no detail.
    const res = await ctx.http
      .get('/v1/companies/1')
      .set('Authorization', 'Bearer not-a-jwt')
      .set('X-Request-Id', 'trace-auth-fail');
    expect(res.status).toBe(403);
    const mine = logs.lines().filter((line) => line.request_id === 'trace-auth-fail');
    expect(mine.length).toBeGreaterThanOrEqual(1);
    for (const line of logs.lines()) {
      expect(typeof line.time).toBe('string');
      expect(typeof line.level).toBe('string');
    }
  });

  it('never writes a password, the JWT secret, an API token, an intent token or a JWT', async () => {
    const apiToken = await createApiToken(ctx, admin);
    const company = await createCompany(ctx, admin);
    const intent = await createIntent(ctx, admin, company.id);
    await ctx.http.get('/v1/suppliers/1/models').set(bearer(apiToken));
    await ctx.http.get('/v1/carts').set(bearer(intent)).set('Cookie', `session=${admin.token}`);
    await ctx.http
      .post('/v1/login')
      .send({ email: 'nobody@example.test', password: 'wrong-secret-pw' });
    await ctx.http.post('/v1/refresh').send({ refresh_token: admin.refreshToken });
    await ctx.http.post('/v1/login').send('{"password": "half-json-secret');
    const text = logs.all();
    expect(text.length).toBeGreaterThan(1000);
    expect(apiToken.startsWith('cfg_')).toBe(true);
    for (const secret of [
      ADMIN_PASSWORD,
      ctx.config.jwt.secret,
      apiToken,
      intent,
      admin.token,
      admin.refreshToken,
      'wrong-secret-pw',
      'half-json-secret',
    ]) {
      expect(text).not.toContain(secret);
    }
    // nothing JWT-shaped at all
    expect(text).not.toMatch(/eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/);
    expect(text).not.toContain('cfg_');
  });

  // Last: it closes the app's database.
  it('logs an error from the exception filter as JSON under the request id; the client sees no detail', async () => {
    await ctx.app.get(DataSource).destroy();
    const res = await ctx.http
      .get('/v1/users/me')
      .set(bearer(admin.token))
      .set('X-Request-Id', 'db-gone-1');
    expectEnvelope(res, 503);
    // A code for clients to act on, and nothing about the cause's internals.
    expect(res.body.errors).toEqual([expect.objectContaining({ code: 'database_unavailable' })]);
    expect(JSON.stringify(res.body)).not.toMatch(
      /stack|QueryFailed|TypeORM|sqlite|postgres|\.ts\b/i,
    );
    const mine = logs.lines().filter((line) => line.request_id === 'db-gone-1');
    expect(mine.find((line) => line.context === 'Errors')).toMatchObject({ level: 'error' });
    expect(mine.find((line) => line.route === '/v1/users/me')).toMatchObject({ status: 503 });
  });
});
