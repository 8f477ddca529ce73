import { DataSource, type Repository } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IntentTokenEntity } from '../../src/intents/intent-token.entity.js';
import { bearer, errorPaths, expectEnvelope, type TestUser } from '../support/factories.js';
import {
  createApiToken,
  createCompany,
  createIntent,
  createOrgWorld,
  type TestCompany,
} from '../support/org.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

interface IntentData {
  id: string;
  token: string;
  company_id: number;
  expires_at: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The claims of a JWT (not verified: the server does that; the test only reads them). */
function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8'));
}

describe('intent tokens: POST /v1/intents, DELETE /v1/intents/{id}', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let company: TestCompany;
  let otherCompany: TestCompany;
  let repo: Repository<IntentTokenEntity>;

  const issue = (by: TestUser, body: Record<string, unknown>) =>
    ctx.http.post('/v1/intents').set(bearer(by.token)).send(body);

  beforeAll(async () => {
    ctx = await createTestApp();
    ({ admin, member, outsider, company } = await createOrgWorld(ctx));
    otherCompany = await createCompany(ctx, outsider);
    repo = ctx.app.get(DataSource).getRepository(IntentTokenEntity);
  });
  afterAll(() => ctx?.close());

  it('issues an intent token for a company the caller belongs to (201, 1 h by default)', async () => {
    const before = Date.now();
    const body = expectEnvelope(await issue(member, { company_id: company.id }), 201);
    expect(body.message).toBe('Intent token issued');
    const data = body.data as IntentData;
    expect(data).toEqual({
      id: expect.stringMatching(UUID),
      token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      company_id: company.id,
      expires_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    const expiresAt = Date.parse(data.expires_at);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 3600_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3600_000);

    const claims = claimsOf(data.token);
    expect(claims).toEqual(
      expect.objectContaining({ typ: 'intent', sub: String(member.id), cid: company.id }),
    );
    expect(claims.jti).toBe(data.id);
    expect(Math.abs((claims.exp as number) * 1000 - expiresAt)).toBeLessThan(2000);

    const row = await repo.findOneByOrFail({ id: data.id });
    expect(row).toEqual(
      expect.objectContaining({ userId: member.id, companyId: company.id, revokedAt: null }),
    );
  });

  it('honours expires_in from 60 s to 24 h', async () => {
    for (const seconds of [60, 86_400]) {
      const res = await issue(member, { company_id: company.id, expires_in: seconds });
      const data = expectEnvelope(res, 201).data as IntentData;
      const lifetime = Date.parse(data.expires_at) - Date.now();
      expect(lifetime).toBeGreaterThan((seconds - 5) * 1000);
      expect(lifetime).toBeLessThanOrEqual(seconds * 1000);
    }
  });

  it('answers 400 with every problem for an invalid body', async () => {
    const cases: [Record<string, unknown>, string[]][] = [
      [{}, ['company_id']],
      [{ company_id: '1' }, ['company_id']],
      [{ company_id: 0 }, ['company_id']],
      [{ company_id: company.id, expires_in: 59 }, ['expires_in']],
      [{ company_id: company.id, expires_in: 86_401 }, ['expires_in']],
      [{ company_id: company.id, expires_in: 90.5 }, ['expires_in']],
      [{ company_id: company.id, expires_in: '600' }, ['expires_in']],
      [{ company_id: company.id, user_id: 1 }, ['user_id']],
    ];
    for (const [input, paths] of cases) {
      const body = expectEnvelope(await issue(member, input), 400);
      expect(errorPaths(body), JSON.stringify(input)).toEqual(expect.arrayContaining(paths));
    }
  });

  it('answers 404 alike for a company the caller may not see and one that does not exist', async () => {
    const invisible = expectEnvelope(await issue(member, { company_id: otherCompany.id }), 404);
    const missing = expectEnvelope(await issue(member, { company_id: 999_999 }), 404);
    expect(invisible).toEqual(missing);
    expect(invisible.errors).toEqual([expect.objectContaining({ path: 'company_id' })]);
    expectEnvelope(await issue(admin, { company_id: 999_999 }), 404);
    expect(await repo.countBy({ companyId: otherCompany.id, userId: member.id })).toBe(0);
  });

  it('lets an admin issue one for any company', async () => {
    const data = expectEnvelope(await issue(admin, { company_id: otherCompany.id }), 201)
      .data as IntentData;
    expect(data.company_id).toBe(otherCompany.id);
    expect(claimsOf(data.token).sub).toBe(String(admin.id));
  });

  it('answers 401 unless called with a JWT access token', async () => {
    const intent = await createIntent(ctx, member, company.id);
    const apiToken = await createApiToken(ctx, member);
    const body = { company_id: company.id };
    expectEnvelope(await ctx.http.post('/v1/intents').send(body), 401);
    for (const credential of [intent, apiToken, member.refreshToken, 'garbage']) {
      const res = await ctx.http.post('/v1/intents').set(bearer(credential)).send(body);
      expectEnvelope(res, 401);
    }
  });

  it('is accepted on GET /v1/companies/{its id}, and nowhere outside its company and paths', async () => {
    const intent = await createIntent(ctx, member, company.id);
    const own = expectEnvelope(
      await ctx.http.get(`/v1/companies/${company.id}`).set(bearer(intent)),
      200,
    );
    expect(own.data).toEqual([expect.objectContaining({ id: company.id })]);

    // A second company of the same user is still out of the token's reach.
    const second = await createCompany(ctx, member);
    expectEnvelope(await ctx.http.get(`/v1/companies/${second.id}`).set(bearer(member.token)), 200);
    expectEnvelope(await ctx.http.get(`/v1/companies/${second.id}`).set(bearer(intent)), 404);
    // Not a JWT access token, not an API token.
    expectEnvelope(await ctx.http.get('/v1/users/me').set(bearer(intent)), 401);
    expectEnvelope(await ctx.http.post('/v1/tokens').set(bearer(intent)).send({ name: 'x' }), 403);
    expectEnvelope(await ctx.http.get('/v1/suppliers/1').set(bearer(intent)), 401);
  });

  it('revokes an intent token: 200, then it is refused; another user’s is a 404', async () => {
    const res = await issue(member, { company_id: company.id });
    const { id, token } = expectEnvelope(res, 201).data as IntentData;
    const path = `/v1/companies/${company.id}`;
    expectEnvelope(await ctx.http.get(path).set(bearer(token)), 200);

    expectEnvelope(await ctx.http.delete(`/v1/intents/${id}`).set(bearer(outsider.token)), 404);
    expectEnvelope(await ctx.http.delete(`/v1/intents/${id}`).set(bearer(token)), 401);
    expectEnvelope(await ctx.http.delete(`/v1/intents/${id}`), 401);
    const revoked = expectEnvelope(
      await ctx.http.delete(`/v1/intents/${id}`).set(bearer(member.token)),
      200,
    );
    expect(revoked.message).toBe('Intent token revoked');
    expect(revoked.data).toBeNull();

    // Seed endpoint: a revoked credential answers 403.
    expectEnvelope(await ctx.http.get(path).set(bearer(token)), 403);
    expectEnvelope(await ctx.http.delete(`/v1/intents/${id}`).set(bearer(member.token)), 404);
    for (const unknown of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const missing = await ctx.http.delete(`/v1/intents/${unknown}`).set(bearer(member.token));
      expectEnvelope(missing, 404);
    }
  });

  it('revokes an intent token named by its id in upper case (a UUID in either case)', async () => {
    const res = await issue(member, { company_id: company.id });
    const { id, token } = expectEnvelope(res, 201).data as IntentData;
    const upper = id.toUpperCase();
    expect(upper).not.toBe(id);
    expectEnvelope(await ctx.http.delete(`/v1/intents/${upper}`).set(bearer(member.token)), 200);
    expectEnvelope(await ctx.http.get(`/v1/companies/${company.id}`).set(bearer(token)), 403);
  });

  it('refuses an expired intent token', async () => {
    const res = await issue(member, { company_id: company.id, expires_in: 60 });
    const { id, token } = expectEnvelope(res, 201).data as IntentData;
    const path = `/v1/companies/${company.id}`;
    expectEnvelope(await ctx.http.get(path).set(bearer(token)), 200);
    // The stored expiry is checked as well as the JWT's own `exp`.
    await repo.update({ id }, { expiresAt: new Date(Date.now() - 1000) });
    expectEnvelope(await ctx.http.get(path).set(bearer(token)), 403);
  });
});
