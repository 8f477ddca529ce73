import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createUser,
  errorPaths,
  expectEnvelope,
  idsOf as ids,
  postRawJson,
  type TestUser,
} from '../support/factories.js';
import {
  companyBody,
  createCompany,
  createIntent,
  createOrgWorld,
  type TestCompany,
} from '../support/org.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

const COMPANY_FIELDS = [
  'id',
  'email',
  'name',
  'vat_number',
  'coc_number',
  'phone_number',
  'website',
  'contact_person',
  'created_at',
].sort();

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('companies: create, list, get, visibility', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let aliceFirst: TestCompany;
  let aliceSecond: TestCompany;
  let bobCompany: TestCompany;

  beforeAll(async () => {
    ctx = await createTestApp();
    ({ admin, member: alice, outsider: bob, company: aliceFirst } = await createOrgWorld(ctx));
    aliceSecond = await createCompany(ctx, alice);
    bobCompany = await createCompany(ctx, bob);
  });
  afterAll(() => ctx?.close());

  describe('POST /v1/companies', () => {
    it('creates a company (201) with every field, and its creator can read it', async () => {
      const input = companyBody({
        email: '  Sales@Dealer.Example  ',
        phone_number: '+31 20 123 4567',
        website: 'https://dealer.example',
        contact_person: 'Dana Dealer',
      });
      const res = await ctx.http.post('/v1/companies').set(bearer(alice.token)).send(input);
      const body = expectEnvelope(res, 201);
      expect(body.message).toBe('Company created');
      expect(body.links).toEqual({});
      const data = body.data as Record<string, unknown>;
      expect(Object.keys(data).sort()).toEqual(COMPANY_FIELDS);
      expect(data).toEqual({
        id: expect.any(Number),
        email: 'sales@dealer.example',
        name: input.name,
        vat_number: input.vat_number,
        coc_number: input.coc_number,
        phone_number: '+31 20 123 4567',
        website: 'https://dealer.example',
        contact_person: 'Dana Dealer',
        created_at: expect.stringMatching(ISO_MS),
      });
      const read = await ctx.http.get(`/v1/companies/${data.id}`).set(bearer(alice.token));
      expect(expectEnvelope(read, 200).data).toEqual([data]);
    });

    it('answers null for optional fields that were not sent', async () => {
      const res = await ctx.http.post('/v1/companies').set(bearer(bob.token)).send(companyBody());
      const data = expectEnvelope(res, 201).data as Record<string, unknown>;
      expect(data.phone_number).toBeNull();
      expect(data.website).toBeNull();
      expect(data.contact_person).toBeNull();
    });

    it('makes the creator a member, even an admin', async () => {
      const company = await createCompany(ctx, admin);
      const members = await ctx.http
        .get(`/v1/companies/${company.id}/members`)
        .set(bearer(admin.token));
      const data = expectEnvelope(members, 200).data as { user_id: number }[];
      expect(data.map((m) => m.user_id)).toEqual([admin.id]);
    });

    it('answers 401 with every problem for an invalid body (seed contract)', async () => {
      const res = await ctx.http
        .post('/v1/companies')
        .set(bearer(alice.token))
        .send({ email: 'not-an-email', name: '   ', website: 42, unknown: true });
      const body = expectEnvelope(res, 401);
      expect(errorPaths(body)).toEqual(
        expect.arrayContaining(['email', 'name', 'vat_number', 'coc_number', 'website', 'unknown']),
      );
    });

    it('answers 401 for malformed JSON', async () => {
      expectEnvelope(await postRawJson(ctx, '/v1/companies', alice.token, '{"name":'), 401);
    });

    it('answers 400 "Error while inserting the new company" for a duplicate vat_number', async () => {
      const res = await ctx.http
        .post('/v1/companies')
        .set(bearer(bob.token))
        .send(companyBody({ vat_number: aliceFirst.vat_number }));
      const body = expectEnvelope(res, 400);
      expect(body.message).toBe('Error while inserting the new company');
      expect(body.errors).toEqual([expect.objectContaining({ path: 'vat_number' })]);
      // Nothing half-created: bob still sees only his own companies.
      const list = await ctx.http.get('/v1/companies').set(bearer(bob.token));
      const names = (expectEnvelope(list, 200).data as { vat_number: string }[]).map(
        (c) => c.vat_number,
      );
      expect(names).not.toContain(aliceFirst.vat_number);
    });

    it('answers 403 without a credential or with a bad one', async () => {
      expectEnvelope(await ctx.http.post('/v1/companies').send(companyBody()), 403);
      const bad = await ctx.http
        .post('/v1/companies')
        .set(bearer('not-a-token'))
        .send(companyBody());
      expectEnvelope(bad, 403);
    });

    it('refuses an intent token (403): it is bound to one existing company', async () => {
      const intent = await createIntent(ctx, alice, aliceFirst.id);
      const res = await ctx.http.post('/v1/companies').set(bearer(intent)).send(companyBody());
      const body = expectEnvelope(res, 403);
      expect(body.errors).toEqual([expect.objectContaining({ code: 'intent_not_allowed' })]);
    });
  });

  describe('GET /v1/companies', () => {
    it('lists only the companies a member belongs to', async () => {
      const res = await ctx.http.get('/v1/companies').set(bearer(alice.token));
      const body = expectEnvelope(res, 200);
      expect(body.message).toBe('Companies found');
      const seen = ids(body.data);
      expect(seen).toEqual(expect.arrayContaining([aliceFirst.id, aliceSecond.id]));
      expect(seen).not.toContain(bobCompany.id);
      expect(Object.keys((body.data as object[])[0]).sort()).toEqual(COMPANY_FIELDS);
    });

    it('lists every company for an admin', async () => {
      const res = await ctx.http.get('/v1/companies?per_page=200').set(bearer(admin.token));
      const seen = ids(expectEnvelope(res, 200).data);
      expect(seen).toEqual(expect.arrayContaining([aliceFirst.id, aliceSecond.id, bobCompany.id]));
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
    });

    it('answers 404 when the caller sees no company', async () => {
      const loner = await createUser(ctx, admin);
      const body = expectEnvelope(
        await ctx.http.get('/v1/companies').set(bearer(loner.token)),
        404,
      );
      expect(body.message).toBe('Companies not found');
    });

    it('paginates with self/first/prev/next/last links', async () => {
      const carol = await createUser(ctx, admin);
      const mine = [];
      for (let i = 0; i < 3; i++) mine.push(await createCompany(ctx, carol));
      const res = await ctx.http.get('/v1/companies?page=2&per_page=1').set(bearer(carol.token));
      const body = expectEnvelope(res, 200);
      expect(ids(body.data)).toEqual([mine[1].id]);
      expect(body.links).toEqual({
        self: '/v1/companies?page=2&per_page=1',
        first: '/v1/companies?page=1&per_page=1',
        prev: '/v1/companies?page=1&per_page=1',
        next: '/v1/companies?page=3&per_page=1',
        last: '/v1/companies?page=3&per_page=1',
      });
      const last = await ctx.http.get('/v1/companies?page=3&per_page=1').set(bearer(carol.token));
      const lastBody = expectEnvelope(last, 200);
      expect(ids(lastBody.data)).toEqual([mine[2].id]);
      expect(lastBody.links).not.toHaveProperty('next');
    });

    it('answers 400 for an invalid page query', async () => {
      const res = await ctx.http.get('/v1/companies?per_page=0').set(bearer(alice.token));
      expect(expectEnvelope(res, 400).errors).toEqual([
        expect.objectContaining({ path: 'per_page' }),
      ]);
    });

    it('answers 403 without a credential', async () => {
      expectEnvelope(await ctx.http.get('/v1/companies'), 403);
    });
  });

  describe('GET /v1/companies/{id}', () => {
    it('answers 200 with data = an array holding the company', async () => {
      const res = await ctx.http.get(`/v1/companies/${aliceFirst.id}`).set(bearer(alice.token));
      const body = expectEnvelope(res, 200);
      expect(body.message).toBe('Company found');
      expect(body.data).toEqual([expect.objectContaining(aliceFirst)]);
    });

    it("answers 404 for another tenant's company, exactly as for a missing one", async () => {
      const foreign = await ctx.http.get(`/v1/companies/${bobCompany.id}`).set(bearer(alice.token));
      const missing = await ctx.http.get('/v1/companies/999999').set(bearer(alice.token));
      expectEnvelope(foreign, 404);
      expectEnvelope(missing, 404);
      expect(foreign.body).toEqual(missing.body);
      expectEnvelope(await ctx.http.get('/v1/companies/abc').set(bearer(alice.token)), 404);
    });

    it('lets an admin read any company', async () => {
      const res = await ctx.http.get(`/v1/companies/${bobCompany.id}`).set(bearer(admin.token));
      expect(ids(expectEnvelope(res, 200).data)).toEqual([bobCompany.id]);
    });

    it('answers 403 without a credential', async () => {
      expectEnvelope(await ctx.http.get(`/v1/companies/${aliceFirst.id}`), 403);
    });
  });

  describe('intent tokens', () => {
    it('see only their own company', async () => {
      const intent = await createIntent(ctx, alice, aliceFirst.id);

      const list = expectEnvelope(await ctx.http.get('/v1/companies').set(bearer(intent)), 200);
      expect(ids(list.data)).toEqual([aliceFirst.id]);

      const own = await ctx.http.get(`/v1/companies/${aliceFirst.id}`).set(bearer(intent));
      expect(ids(expectEnvelope(own, 200).data)).toEqual([aliceFirst.id]);

      // Alice is a member of her second company, but this token is not for it.
      const other = await ctx.http.get(`/v1/companies/${aliceSecond.id}`).set(bearer(intent));
      expectEnvelope(other, 404);
    });

    it('of an admin are restricted to their company too', async () => {
      const intent = await createIntent(ctx, admin, bobCompany.id);
      const list = expectEnvelope(await ctx.http.get('/v1/companies').set(bearer(intent)), 200);
      expect(ids(list.data)).toEqual([bobCompany.id]);
      const other = await ctx.http.get(`/v1/companies/${aliceFirst.id}`).set(bearer(intent));
      expectEnvelope(other, 404);
    });
  });
});
