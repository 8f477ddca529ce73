import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createUser,
  errorPaths,
  expectEnvelope,
  type TestUser,
} from '../support/factories.js';
import {
  addCompanyMember,
  addSupplierMember,
  createApiToken,
  createCompany,
  createIntent,
  createOrgWorld,
  createSupplier,
  type TestCompany,
  type TestSupplier,
} from '../support/org.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

const userIds = (data: unknown): number[] => (data as { user_id: number }[]).map((m) => m.user_id);

describe('memberships: supplier members and company members', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let owner: TestUser;
  let outsider: TestUser;
  let company: TestCompany;
  let supplier: TestSupplier;

  beforeAll(async () => {
    ctx = await createTestApp();
    ({ admin, member: owner, outsider, company } = await createOrgWorld(ctx));
    supplier = await createSupplier(ctx, admin, company.id);
  });
  afterAll(() => ctx?.close());

  describe('POST /v1/suppliers/{id}/members', () => {
    it('adds a member (201) who may then list the members; a second time is 409', async () => {
      const maker = await createUser(ctx, admin);
      const res = await ctx.http
        .post(`/v1/suppliers/${supplier.id}/members`)
        .set(bearer(admin.token))
        .send({ user_id: maker.id });
      const body = expectEnvelope(res, 201);
      expect(body.message).toBe('Member added');
      expect(body.data).toEqual({
        user_id: maker.id,
        // Not the caller's own membership: no email (docs/api.md, "The seed contract").
        email: null,
        name: null,
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      });

      const list = await ctx.http
        .get(`/v1/suppliers/${supplier.id}/members`)
        .set(bearer(maker.token));
      expect(userIds(expectEnvelope(list, 200).data)).toEqual([maker.id]);

      const again = await ctx.http
        .post(`/v1/suppliers/${supplier.id}/members`)
        .set(bearer(admin.token))
        .send({ user_id: maker.id });
      expectEnvelope(again, 409);
    });

    it('accepts an admin API token', async () => {
      const maker = await createUser(ctx, admin);
      const token = await createApiToken(ctx, admin);
      const res = await ctx.http
        .post(`/v1/suppliers/${supplier.id}/members`)
        .set(bearer(token))
        .send({ user_id: maker.id });
      expect(expectEnvelope(res, 201).data).toEqual(expect.objectContaining({ user_id: maker.id }));
    });

    it('answers 404 for an unknown supplier or an unknown user', async () => {
      const noSupplier = await ctx.http
        .post('/v1/suppliers/999999/members')
        .set(bearer(admin.token))
        .send({ user_id: owner.id });
      expectEnvelope(noSupplier, 404);
      const noUser = await ctx.http
        .post(`/v1/suppliers/${supplier.id}/members`)
        .set(bearer(admin.token))
        .send({ user_id: 999999 });
      expect(expectEnvelope(noUser, 404).errors).toEqual([
        expect.objectContaining({ path: 'user_id' }),
      ]);
    });

    it('answers 400 for an invalid body', async () => {
      const res = await ctx.http
        .post(`/v1/suppliers/${supplier.id}/members`)
        .set(bearer(admin.token))
        .send({ user_id: '7', role: 'boss' });
      expect(errorPaths(expectEnvelope(res, 400))).toEqual(
        expect.arrayContaining(['user_id', 'role']),
      );
    });

    it('answers 403 for a non-admin (even a supplier member) and 401 without a credential', async () => {
      const maker = await createUser(ctx, admin);
      await addSupplierMember(ctx, admin, supplier.id, maker.id);
      const res = await ctx.http
        .post(`/v1/suppliers/${supplier.id}/members`)
        .set(bearer(maker.token))
        .send({ user_id: outsider.id });
      expectEnvelope(res, 403);
      const none = await ctx.http
        .post(`/v1/suppliers/${supplier.id}/members`)
        .send({ user_id: outsider.id });
      expectEnvelope(none, 401);
    });
  });

  describe('GET /v1/suppliers/{id}/members', () => {
    it('answers 403 for a non-member, 404 for an unknown supplier, 401 without credential', async () => {
      const res = await ctx.http
        .get(`/v1/suppliers/${supplier.id}/members`)
        .set(bearer(outsider.token));
      expectEnvelope(res, 403);
      const missing = await ctx.http.get('/v1/suppliers/999999/members').set(bearer(admin.token));
      expectEnvelope(missing, 404);
      expectEnvelope(await ctx.http.get(`/v1/suppliers/${supplier.id}/members`), 401);
    });
  });

  describe('POST /v1/companies/{id}/members', () => {
    it('lets an admin add a user by id (201, no email in the answer), who then sees the company', async () => {
      const colleague = await createUser(ctx, admin);
      const before = await ctx.http.get('/v1/companies').set(bearer(colleague.token));
      expectEnvelope(before, 404);
      // Members invite by email instead (security-invitations): adding by id reveals accounts.
      const byMember = await ctx.http
        .post(`/v1/companies/${company.id}/members`)
        .set(bearer(owner.token))
        .send({ user_id: colleague.id });
      expectEnvelope(byMember, 403);

      const res = await ctx.http
        .post(`/v1/companies/${company.id}/members`)
        .set(bearer(admin.token))
        .send({ user_id: colleague.id });
      const body = expectEnvelope(res, 201);
      expect(body.message).toBe('Member added');
      expect(body.data).toEqual(expect.objectContaining({ user_id: colleague.id, email: null }));

      const after = await ctx.http.get(`/v1/companies/${company.id}`).set(bearer(colleague.token));
      expectEnvelope(after, 200);
    });

    it('lets an admin add anyone to any company', async () => {
      const other = await createCompany(ctx, outsider);
      const newcomer = await createUser(ctx, admin);
      await addCompanyMember(ctx, admin, other.id, newcomer.id);
      const seen = await ctx.http.get(`/v1/companies/${other.id}`).set(bearer(newcomer.token));
      expectEnvelope(seen, 200);
    });

    it('answers 409 for an existing member', async () => {
      const res = await ctx.http
        .post(`/v1/companies/${company.id}/members`)
        .set(bearer(admin.token))
        .send({ user_id: owner.id });
      const body = expectEnvelope(res, 409);
      expect(body.errors).toEqual([expect.objectContaining({ path: 'user_id' })]);
    });

    it('answers a non-admin alike for a hidden and a missing company', async () => {
      const hidden = await ctx.http
        .post(`/v1/companies/${company.id}/members`)
        .set(bearer(outsider.token))
        .send({ user_id: outsider.id });
      const missing = await ctx.http
        .post('/v1/companies/999999/members')
        .set(bearer(outsider.token))
        .send({ user_id: outsider.id });
      expectEnvelope(hidden, 403);
      expectEnvelope(missing, 403);
      expect(hidden.body).toEqual(missing.body);
    });

    it('answers 404 for an unknown user and 400 for an invalid body', async () => {
      const noUser = await ctx.http
        .post(`/v1/companies/${company.id}/members`)
        .set(bearer(admin.token))
        .send({ user_id: 999999 });
      expect(expectEnvelope(noUser, 404).errors).toEqual([
        expect.objectContaining({ path: 'user_id' }),
      ]);
      const invalid = await ctx.http
        .post(`/v1/companies/${company.id}/members`)
        .set(bearer(admin.token))
        .send({});
      expectEnvelope(invalid, 400);
    });

    it('takes a JWT only: 401 for an intent token or no credential', async () => {
      const intent = await createIntent(ctx, owner, company.id);
      const viaIntent = await ctx.http
        .post(`/v1/companies/${company.id}/members`)
        .set(bearer(intent))
        .send({ user_id: outsider.id });
      expectEnvelope(viaIntent, 401);
      const none = await ctx.http
        .post(`/v1/companies/${company.id}/members`)
        .send({ user_id: outsider.id });
      expectEnvelope(none, 401);
    });
  });

  describe('GET /v1/companies/{id}/members', () => {
    it('lists the members to a member, paginated', async () => {
      const team = await createCompany(ctx, owner);
      const second = await createUser(ctx, admin);
      const third = await createUser(ctx, admin);
      await addCompanyMember(ctx, admin, team.id, second.id);
      await addCompanyMember(ctx, admin, team.id, third.id);

      const all = await ctx.http.get(`/v1/companies/${team.id}/members`).set(bearer(second.token));
      const body = expectEnvelope(all, 200);
      expect(body.message).toBe('Members found');
      expect(userIds(body.data)).toEqual([owner.id, second.id, third.id]);

      const path = `/v1/companies/${team.id}/members`;
      const page = await ctx.http.get(`${path}?page=2&per_page=1`).set(bearer(owner.token));
      const pageBody = expectEnvelope(page, 200);
      expect(userIds(pageBody.data)).toEqual([second.id]);
      expect(pageBody.links).toEqual({
        self: `${path}?page=2&per_page=1`,
        first: `${path}?page=1&per_page=1`,
        prev: `${path}?page=1&per_page=1`,
        next: `${path}?page=3&per_page=1`,
        last: `${path}?page=3&per_page=1`,
      });
    });

    it('answers 404 to a non-member', async () => {
      const res = await ctx.http
        .get(`/v1/companies/${company.id}/members`)
        .set(bearer(outsider.token));
      expectEnvelope(res, 404);
    });
  });

  describe('GET /v1/suppliers/{id}: visible through memberships', () => {
    it('shows the supplier to admins, its members and members of linked companies', async () => {
      const maker = await createUser(ctx, admin);
      await addSupplierMember(ctx, admin, supplier.id, maker.id);
      const makerToken = await createApiToken(ctx, maker);
      for (const token of [admin.token, maker.token, makerToken, owner.token]) {
        const res = await ctx.http.get(`/v1/suppliers/${supplier.id}`).set(bearer(token));
        const body = expectEnvelope(res, 200);
        expect(body.message).toBe('Supplier found');
        expect(body.data).toEqual(
          expect.objectContaining({ ...supplier, created_at: expect.any(String) }),
        );
      }
    });

    it('answers 404 to anyone else, exactly as for a missing supplier', async () => {
      const outsider = await createUser(ctx, admin);
      const hidden = await ctx.http.get(`/v1/suppliers/${supplier.id}`).set(bearer(outsider.token));
      const missing = await ctx.http.get('/v1/suppliers/999999').set(bearer(outsider.token));
      expectEnvelope(hidden, 404);
      expectEnvelope(missing, 404);
      expect(hidden.body).toEqual(missing.body);
    });

    it('answers 401 without a credential', async () => {
      expectEnvelope(await ctx.http.get(`/v1/suppliers/${supplier.id}`), 401);
    });
  });
});
