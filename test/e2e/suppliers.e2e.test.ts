import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  errorPaths,
  expectEnvelope,
  idsOf as ids,
  type TestUser,
} from '../support/factories.js';
import {
  createApiToken,
  createCompany,
  createIntent,
  createOrgWorld,
  createSupplier,
  supplierBody,
  type TestCompany,
  type TestSupplier,
} from '../support/org.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

const LISTED_SUPPLIER_FIELDS = [
  'id',
  'email',
  'name',
  'website',
  'contact_person',
  'phone_number',
  'vat_number',
  'coc_number',
].sort();

describe('suppliers: create, link, list for a company', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let buyer: TestUser;
  let stranger: TestUser;
  let company: TestCompany;
  let strangerCompany: TestCompany;
  let supplier: TestSupplier;

  beforeAll(async () => {
    ctx = await createTestApp();
    ({ admin, member: buyer, outsider: stranger, company } = await createOrgWorld(ctx));
    strangerCompany = await createCompany(ctx, stranger);
    supplier = await createSupplier(ctx, admin, company.id);
  });
  afterAll(() => ctx?.close());

  /** POST /v1/suppliers/{companyId} as `token`, by default with a valid body. */
  const postSupplier = (companyId: number | string, token: string, body: object = supplierBody()) =>
    ctx.http.post(`/v1/suppliers/${companyId}`).set(bearer(token)).send(body);

  describe('POST /v1/suppliers/{id} (id = the company it is linked to)', () => {
    it('creates a supplier (201) with every field and links it to the company', async () => {
      const target = await createCompany(ctx, buyer);
      const input = supplierBody({
        email: ' Sales@Maker.Example ',
        contact_person: 'Sam Seller',
        phone_number: '+31 10 765 4321',
        vat_number: 'NL987654321B01',
        coc_number: '87654321',
      });
      const res = await postSupplier(target.id, admin.token, input);
      const body = expectEnvelope(res, 201);
      expect(body.message).toBe('Supplier created');
      expect(body.data).toEqual({
        id: expect.any(Number),
        email: 'sales@maker.example',
        name: input.name,
        website: input.website,
        contact_person: 'Sam Seller',
        phone_number: '+31 10 765 4321',
        vat_number: 'NL987654321B01',
        coc_number: '87654321',
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      });
      const listed = await ctx.http
        .get(`/v1/companies/${target.id}/suppliers`)
        .set(bearer(buyer.token));
      expect(ids(expectEnvelope(listed, 200).data)).toEqual([(body.data as { id: number }).id]);
    });

    it('answers null for optional fields that were not sent', async () => {
      const res = await postSupplier(company.id, admin.token);
      const data = expectEnvelope(res, 201).data as Record<string, unknown>;
      for (const field of ['contact_person', 'phone_number', 'vat_number', 'coc_number']) {
        expect(data[field]).toBeNull();
      }
    });

    it('accepts an admin API token', async () => {
      const token = await createApiToken(ctx, admin);
      const res = await postSupplier(company.id, token);
      expectEnvelope(res, 201);
    });

    it('answers 409 for a duplicate email (case-insensitive) and links nothing', async () => {
      const target = await createCompany(ctx, buyer);
      const duplicate = supplierBody({ email: supplier.email.toUpperCase() });
      const res = await postSupplier(target.id, admin.token, duplicate);
      const body = expectEnvelope(res, 409);
      expect(body.message).toBe('Error while inserting the new supplier');
      expect(body.errors).toEqual([expect.objectContaining({ path: 'email' })]);
      const listed = await ctx.http
        .get(`/v1/companies/${target.id}/suppliers`)
        .set(bearer(buyer.token));
      expectEnvelope(listed, 404);
    });

    it('answers 404 when the company does not exist', async () => {
      const res = await postSupplier(999999, admin.token);
      expectEnvelope(res, 404);
      const notAnId = await postSupplier('abc', admin.token);
      expectEnvelope(notAnId, 404);
    });

    it('answers 400 with every problem for an invalid body', async () => {
      const res = await postSupplier(company.id, admin.token, {
        email: 'nope',
        vat_number: 12,
        extra: 'x',
      });
      expect(errorPaths(expectEnvelope(res, 400))).toEqual(
        expect.arrayContaining(['email', 'name', 'website', 'vat_number', 'extra']),
      );
    });

    it('answers 403 for a non-admin, by JWT or API token', async () => {
      const res = await postSupplier(company.id, buyer.token);
      expectEnvelope(res, 403);
      const token = await createApiToken(ctx, buyer);
      const viaApi = await postSupplier(company.id, token);
      expectEnvelope(viaApi, 403);
    });

    it('answers 403 without a credential, and for an intent token (wrong kind)', async () => {
      const none = await ctx.http.post(`/v1/suppliers/${company.id}`).send(supplierBody());
      expectEnvelope(none, 403);
      const intent = await createIntent(ctx, admin, company.id);
      const viaIntent = await postSupplier(company.id, intent);
      expectEnvelope(viaIntent, 403);
    });
  });

  describe('GET /v1/companies/{id}/suppliers', () => {
    it('lists the suppliers (200, "Suppliers found", no created_at)', async () => {
      const res = await ctx.http
        .get(`/v1/companies/${company.id}/suppliers`)
        .set(bearer(buyer.token));
      const body = expectEnvelope(res, 200);
      expect(body.message).toBe('Suppliers found');
      const data = body.data as Record<string, unknown>[];
      expect(ids(data)).toContain(supplier.id);
      for (const item of data) expect(Object.keys(item).sort()).toEqual(LISTED_SUPPLIER_FIELDS);
      const { created_at: _createdAt, ...listedFields } = supplier as TestSupplier & {
        created_at: string;
      };
      expect(data.find((s) => s.id === supplier.id)).toEqual(listedFields);
    });

    it('paginates with self/first/prev/next/last links', async () => {
      const target = await createCompany(ctx, buyer);
      const made = [];
      for (let i = 0; i < 3; i++) made.push(await createSupplier(ctx, admin, target.id));
      const path = `/v1/companies/${target.id}/suppliers`;
      const res = await ctx.http.get(`${path}?page=2&per_page=1`).set(bearer(buyer.token));
      const body = expectEnvelope(res, 200);
      expect(ids(body.data)).toEqual([made[1].id]);
      expect(body.links).toEqual({
        self: `${path}?page=2&per_page=1`,
        first: `${path}?page=1&per_page=1`,
        prev: `${path}?page=1&per_page=1`,
        next: `${path}?page=3&per_page=1`,
        last: `${path}?page=3&per_page=1`,
      });
    });

    it('answers 404 "No suppliers found" for a company without suppliers', async () => {
      const empty = await createCompany(ctx, buyer);
      const res = await ctx.http
        .get(`/v1/companies/${empty.id}/suppliers`)
        .set(bearer(buyer.token));
      expect(expectEnvelope(res, 404).message).toBe('No suppliers found');
    });

    it('answers 404 for a company that does not exist or is not visible', async () => {
      const foreign = await ctx.http
        .get(`/v1/companies/${company.id}/suppliers`)
        .set(bearer(stranger.token));
      const missing = await ctx.http
        .get('/v1/companies/999999/suppliers')
        .set(bearer(stranger.token));
      expectEnvelope(foreign, 404);
      expectEnvelope(missing, 404);
      expect(foreign.body).toEqual(missing.body);
    });

    it('serves an intent token for its company only', async () => {
      const intent = await createIntent(ctx, buyer, company.id);
      const own = await ctx.http.get(`/v1/companies/${company.id}/suppliers`).set(bearer(intent));
      expect(ids(expectEnvelope(own, 200).data)).toContain(supplier.id);

      const other = await createCompany(ctx, buyer);
      await createSupplier(ctx, admin, other.id);
      const foreign = await ctx.http.get(`/v1/companies/${other.id}/suppliers`).set(bearer(intent));
      expectEnvelope(foreign, 404);
    });

    it('answers 403 without a credential or with an API token (wrong kind)', async () => {
      expectEnvelope(await ctx.http.get(`/v1/companies/${company.id}/suppliers`), 403);
      const token = await createApiToken(ctx, buyer);
      const viaApi = await ctx.http.get(`/v1/companies/${company.id}/suppliers`).set(bearer(token));
      expectEnvelope(viaApi, 403);
    });
  });

  describe('POST /v1/companies/{id}/suppliers (link an existing supplier)', () => {
    it('links a supplier to a second company (201), once', async () => {
      const res = await ctx.http
        .post(`/v1/companies/${strangerCompany.id}/suppliers`)
        .set(bearer(admin.token))
        .send({ supplier_id: supplier.id });
      const body = expectEnvelope(res, 201);
      expect(body.message).toBe('Supplier linked');
      expect(body.data).toEqual(
        expect.objectContaining({ ...supplier, created_at: expect.any(String) }),
      );

      const listed = await ctx.http
        .get(`/v1/companies/${strangerCompany.id}/suppliers`)
        .set(bearer(stranger.token));
      expect(ids(expectEnvelope(listed, 200).data)).toEqual([supplier.id]);

      const again = await ctx.http
        .post(`/v1/companies/${strangerCompany.id}/suppliers`)
        .set(bearer(admin.token))
        .send({ supplier_id: supplier.id });
      expectEnvelope(again, 409);
    });

    it('answers 404 for an unknown supplier or company', async () => {
      const noSupplier = await ctx.http
        .post(`/v1/companies/${company.id}/suppliers`)
        .set(bearer(admin.token))
        .send({ supplier_id: 999999 });
      expect(expectEnvelope(noSupplier, 404).errors).toEqual([
        expect.objectContaining({ path: 'supplier_id' }),
      ]);
      const noCompany = await ctx.http
        .post('/v1/companies/999999/suppliers')
        .set(bearer(admin.token))
        .send({ supplier_id: supplier.id });
      expectEnvelope(noCompany, 404);
    });

    it('answers 400 for an invalid body', async () => {
      const res = await ctx.http
        .post(`/v1/companies/${company.id}/suppliers`)
        .set(bearer(admin.token))
        .send({ supplier_id: 'one' });
      expect(expectEnvelope(res, 400).errors).toEqual(
        expect.arrayContaining([expect.objectContaining({ path: 'supplier_id' })]),
      );
    });

    it('answers 403 for a non-admin (even a member) and 401 without a credential', async () => {
      const res = await ctx.http
        .post(`/v1/companies/${company.id}/suppliers`)
        .set(bearer(buyer.token))
        .send({ supplier_id: supplier.id });
      expectEnvelope(res, 403);
      const none = await ctx.http
        .post(`/v1/companies/${company.id}/suppliers`)
        .send({ supplier_id: supplier.id });
      expectEnvelope(none, 401);
    });
  });
});
