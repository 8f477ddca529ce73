import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createUser,
  expectEnvelope,
  loginAdmin,
  type TestUser,
} from '../support/factories.js';
import { LogCapture, logDuring, STACK_OR_ERROR } from '../support/log-capture.js';
import { createApiToken, createCompany, createSupplier } from '../support/org.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/**
 * docs/security.md, "Credentials": only the Authorization header carries credentials
 * (and the refresh token its body field); any odd credential input is an authentication
 * failure (403 on the seed endpoints, 401 elsewhere), never a 500, nothing in the log.
 */
describe('credentials only from the Authorization header', () => {
  let ctx: TestContext;
  const logs = new LogCapture();
  let admin: TestUser;
  let member: TestUser;
  let apiToken: string;
  let supplierId: number;

  beforeAll(async () => {
    ctx = await createTestApp({}, undefined, { logs });
    admin = await loginAdmin(ctx);
    member = await createUser(ctx, admin);
    const company = await createCompany(ctx, admin);
    supplierId = (await createSupplier(ctx, admin, company.id)).id;
    apiToken = await createApiToken(ctx, admin);
  });
  afterAll(() => ctx?.close());

  it('answers odd query and body credentials with an authentication failure, logging nothing', async () => {
    const log = await logDuring(logs, async () => {
      const get = (query: string) => ctx.http.get(`/v1/suppliers/${supplierId}?${query}`);
      for (const query of [
        'access_token=a&access_token=b',
        'access_token[x]=1',
        'access_token=',
        `access_token=${apiToken}`,
        `access_token=${admin.token}`,
      ]) {
        expectEnvelope(await get(query), 401);
      }
      // A body access_token on a seed endpoint (403) and on another one (401).
      for (const access_token of [5, ['a', 'b'], { x: 1 }, null, apiToken, admin.token]) {
        expectEnvelope(await ctx.http.post('/v1/companies').send({ access_token }), 403);
        expectEnvelope(await ctx.http.post('/v1/intents').send({ access_token }), 401);
      }
      expectEnvelope(
        await ctx.http.get(`/v1/suppliers/${supplierId}`).set('Cookie', `access_token=${apiToken}`),
        401,
      );
    });
    expect(log.text).not.toMatch(STACK_OR_ERROR);
    expect(log.errors).toEqual([]);
  });

  it('answers odd Authorization headers with 401 (403 on seed endpoints)', async () => {
    const log = await logDuring(logs, async () => {
      for (const header of [
        'Bearer',
        'Bearer ',
        'Bearer a b',
        `Basic ${apiToken}`,
        `bearer${apiToken}`,
        `Bearer ${'x'.repeat(5000)}`,
        'Bearer cfg_',
        'Bearer cfg_\u00e9',
        'Bearer 5',
      ]) {
        const res = await ctx.http.get(`/v1/suppliers/${supplierId}`).set('Authorization', header);
        expectEnvelope(res, 401);
        expectEnvelope(await ctx.http.get('/v1/companies').set('Authorization', header), 403);
      }
    });
    expect(log.text).not.toMatch(STACK_OR_ERROR);
    expect(log.errors).toEqual([]);
  });

  it('still accepts the header', async () => {
    expectEnvelope(await ctx.http.get(`/v1/suppliers/${supplierId}`).set(bearer(apiToken)), 200);
    expectEnvelope(await ctx.http.get(`/v1/suppliers/${supplierId}`).set(bearer(admin.token)), 200);
  });

  it('refuses a refresh token that is not a string, and never reads it from the query', async () => {
    const log = await logDuring(logs, async () => {
      for (const refresh_token of [5, ['a'], { a: 1 }, null, true, '', 'x\u0000y']) {
        expectEnvelope(await ctx.http.post('/v1/refresh').send({ refresh_token }), 401);
      }
      const viaQuery = await ctx.http
        .post(`/v1/refresh?refresh_token=${encodeURIComponent(member.refreshToken)}`)
        .send({});
      expect([400, 401]).toContain(viaQuery.status);
    });
    expect(log.text).not.toMatch(STACK_OR_ERROR);
    expect(log.errors).toEqual([]);
    // The refused attempts did not consume the session's refresh token.
    expectEnvelope(
      await ctx.http.post('/v1/refresh').send({ refresh_token: member.refreshToken }),
      201,
    );
  });
});

describe('JWTs must carry exp', () => {
  let ctx: TestContext;
  const logs = new LogCapture();
  let admin: TestUser;

  beforeAll(async () => {
    ctx = await createTestApp({}, undefined, { logs });
    admin = await loginAdmin(ctx);
  });
  afterAll(() => ctx?.close());

  /** The same claims, validly signed with the service's own secret, without `exp`. */
  const resignWithoutExp = (token: string): string => {
    const claims = jwt.decode(token) as Record<string, unknown>;
    delete claims.exp;
    return jwt.sign(claims, ctx.config.jwt.secret, { algorithm: 'HS256' });
  };

  it('refuses access, refresh and intent JWTs without exp', async () => {
    const withExp = resignWithoutExp(admin.token);
    expect((jwt.decode(withExp) as { exp?: number }).exp).toBeUndefined();
    expectEnvelope(await ctx.http.get('/v1/users/me').set(bearer(withExp)), 401);
    expectEnvelope(await ctx.http.get('/v1/companies').set(bearer(withExp)), 403);

    expectEnvelope(
      await ctx.http
        .post('/v1/refresh')
        .send({ refresh_token: resignWithoutExp(admin.refreshToken) }),
      401,
    );

    const company = await createCompany(ctx, admin);
    const intent = await ctx.http
      .post('/v1/intents')
      .set(bearer(admin.token))
      .send({ company_id: company.id });
    const intentToken = (expectEnvelope(intent, 201).data as { token: string }).token;
    expectEnvelope(await ctx.http.get(`/v1/companies/${company.id}`).set(bearer(intentToken)), 200);
    expectEnvelope(
      await ctx.http.get(`/v1/companies/${company.id}`).set(bearer(resignWithoutExp(intentToken))),
      403,
    );
    // Re-signed with exp, the same claims pass: exp is what was missing.
    const claims = jwt.decode(admin.token) as Record<string, unknown>;
    const resigned = jwt.sign(claims, ctx.config.jwt.secret, { algorithm: 'HS256' });
    expectEnvelope(await ctx.http.get('/v1/users/me').set(bearer(resigned)), 200);
  });
});
