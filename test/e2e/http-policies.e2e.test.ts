import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectEnvelope, loginAdmin, type TestUser } from '../support/factories.js';
import { createCompany, createIntent } from '../support/org.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

const SHOP = 'http://127.0.0.1:8089';

describe('CORS (CORS_ORIGINS) and Cache-Control', () => {
  let ctx: TestContext;
  let admin: TestUser;

  beforeAll(async () => {
    ctx = await createTestApp({ CORS_ORIGINS: `${SHOP}, https://shop.example` });
    admin = await loginAdmin(ctx);
  });
  afterAll(() => ctx?.close());

  it('answers the preflight of an allowed origin with the methods and headers a shop needs', async () => {
    const res = await ctx.http
      .options('/v1/carts')
      .set('Origin', SHOP)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'authorization, content-type, idempotency-key');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(SHOP);
    expect(res.headers['access-control-allow-methods']).toContain('POST');
    const allowed = String(res.headers['access-control-allow-headers']).toLowerCase();
    for (const header of ['authorization', 'content-type', 'idempotency-key', 'if-none-match'])
      expect(allowed).toContain(header);
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('exposes the request id, Retry-After and Idempotent-Replayed to the allowed origin only', async () => {
    const company = await createCompany(ctx, admin);
    const intent = await createIntent(ctx, admin, company.id);
    const res = await ctx.http
      .get(`/v1/companies/${company.id}`)
      .set(bearer(intent))
      .set('Origin', SHOP);
    expectEnvelope(res, 200);
    expect(res.headers['access-control-allow-origin']).toBe(SHOP);
    const exposed = String(res.headers['access-control-expose-headers']);
    for (const header of ['X-Request-Id', 'Retry-After', 'Idempotent-Replayed'])
      expect(exposed).toContain(header);
    const stranger = await ctx.http
      .options('/v1/carts')
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'POST');
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
  });

  it("answers preflights on the intent token's paths only (/v1/carts/**, /v1/companies/**)", async () => {
    const preflight = (path: string, method = 'POST') =>
      ctx.http
        .options(path)
        .set('Origin', SHOP)
        .set('Access-Control-Request-Method', method)
        .set('Access-Control-Request-Headers', 'authorization, content-type');
    for (const path of [
      '/v1/carts',
      '/v1/carts/new',
      '/v1/carts/7/lines/3',
      '/v1/companies',
      '/v1/companies/1',
      '/v1/companies/1/models/2/assets/a.png',
    ]) {
      const res = await preflight(path);
      expect(res.status, path).toBe(204);
      expect(res.headers['access-control-allow-origin'], path).toBe(SHOP);
    }
    for (const path of [
      '/v1/suppliers/1/models',
      '/v1/models/1',
      '/v1/login',
      '/v1/tokens',
      '/v1/intents',
      '/v1/users/me',
      '/v1/cartsx',
      '/v1/companies-list',
      '/health/ready',
      '/metrics',
    ]) {
      const res = await preflight(path);
      expect(res.headers['access-control-allow-origin'], path).toBeUndefined();
      expect(res.headers['access-control-allow-methods'], path).toBeUndefined();
      expect(res.status, path).toBeLessThan(500);
    }
    // A simple (non-preflighted) read elsewhere carries no Access-Control header either.
    const me = await ctx.http.get('/v1/users/me').set(bearer(admin.token)).set('Origin', SHOP);
    expectEnvelope(me, 200);
    expect(me.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('says no-store on every /v1 answer: tokens, tenant data and errors', async () => {
    const login = await ctx.http
      .post('/v1/login')
      .send({ email: 'admin@example.test', password: 'admin-password-for-tests' });
    expect(login.headers['cache-control']).toBe('no-store');
    const refresh = await ctx.http.post('/v1/refresh').send({ refresh_token: admin.refreshToken });
    expect(refresh.headers['cache-control']).toBe('no-store');
    const tokens = await ctx.http.post('/v1/tokens').set(bearer(admin.token)).send({ name: 'ci' });
    expect(tokens.headers['cache-control']).toBe('no-store');
    const me = await ctx.http.get('/v1/users/me').set(bearer(admin.token));
    expect(me.headers['cache-control']).toBe('no-store');
    const missing = await ctx.http.get('/v1/companies/424242').set(bearer(admin.token));
    expect(missing.status).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
  });

  it('without CORS_ORIGINS there is no cross-origin access at all', async () => {
    const closed = await createTestApp();
    try {
      const res = await closed.http
        .options('/v1/carts')
        .set('Origin', SHOP)
        .set('Access-Control-Request-Method', 'POST');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await closed.close();
    }
  });
});
