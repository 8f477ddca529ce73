import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../src/principal/principal.js';
import { CompaniesService } from '../../src/companies/companies.service.js';
import { bearer, createUser, loginAdmin, unique, type TestUser } from '../support/factories.js';
import { createModelWorld, minimalModel, sendModel } from '../support/model.factories.js';
import { createCompany } from '../support/org.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/**
 * Writes that use a transaction must not trip over each other when requests overlap
 * (on SQLite TypeORM shares one connection between all of them).
 */
describe('concurrent transactional writes', () => {
  let ctx: TestContext;
  let admin: TestUser;

  beforeAll(async () => {
    ctx = await createTestApp();
    admin = await loginAdmin(ctx);
  });
  afterAll(() => ctx?.close());

  it('creates 12 companies at once, each with its creator as member', async () => {
    const owner = await createUser(ctx, admin);
    const responses = await Promise.all(
      Array.from({ length: 12 }, () =>
        ctx.http
          .post('/v1/companies')
          .set(bearer(owner.token))
          .send({
            email: `${unique('co')}@example.test`,
            name: unique('Company'),
            vat_number: unique('VAT'),
            coc_number: unique('COC'),
          }),
      ),
    );
    expect(responses.map((res) => res.status)).toEqual(Array(12).fill(201));
    const list = await ctx.http.get('/v1/companies?per_page=50').set(bearer(owner.token));
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(12);
  });

  it('runs 12 overlapping company transactions in the service without one failing', async () => {
    // Over HTTP the guard's own awaits spread requests out; calling the service directly
    // makes the transactions really overlap.
    const owner = await createUser(ctx, admin);
    const principal: Principal = {
      userId: owner.id,
      email: owner.email,
      role: 'member',
      via: 'jwt',
      companyId: null,
      tokenId: null,
      familyId: null,
    };
    const companies = ctx.app.get(CompaniesService);
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, () =>
        companies.create(principal, {
          email: `${unique('co')}@example.test`,
          name: unique('Company'),
          vat_number: unique('VAT'),
          coc_number: unique('COC'),
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
  });

  it('creates 12 suppliers at once for one company, and refuses a duplicate among them with 409', async () => {
    const company = await createCompany(ctx, admin);
    const duplicateEmail = `${unique('dup')}@example.test`;
    const bodies = Array.from({ length: 12 }, (_, i) => ({
      email: i < 2 ? duplicateEmail : `${unique('sup')}@example.test`,
      name: unique('Supplier'),
      website: 'https://example.test',
    }));
    const responses = await Promise.all(
      bodies.map((body) =>
        ctx.http.post(`/v1/suppliers/${company.id}`).set(bearer(admin.token)).send(body),
      ),
    );
    const statuses = responses.map((res) => res.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(11);
    expect(statuses.filter((s) => s === 409)).toHaveLength(1);
    const suppliers = await ctx.http
      .get(`/v1/companies/${company.id}/suppliers?per_page=50`)
      .set(bearer(admin.token));
    expect(suppliers.body.data).toHaveLength(11);
  });

  it('lets one of several racing uploads with the same model code win; the others get 409', async () => {
    const world = await createModelWorld(ctx);
    const url = `/v1/suppliers/${world.supplier.id}/models`;
    const responses = await Promise.all(
      Array.from({ length: 6 }, () =>
        sendModel(ctx, 'post', url, world.supplierMember.token, minimalModel('RACE')),
      ),
    );
    const statuses = responses.map((res) => res.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
  });
});
