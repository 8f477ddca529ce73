import { expect } from 'vitest';
import { bearer, unique, type TestUser } from './factories.js';
import type { TestContext } from './test-app.js';

export interface TestCompany {
  id: number;
  name: string;
  vat_number: string;
}

export interface TestSupplier {
  id: number;
  name: string;
  email: string;
}

/** A company created by `owner` (who becomes its member). */
export async function createCompany(
  ctx: TestContext,
  owner: TestUser,
  overrides: Record<string, unknown> = {},
): Promise<TestCompany> {
  const body = {
    email: `${unique('co')}@example.test`,
    name: unique('Company'),
    vat_number: unique('NL-VAT'),
    coc_number: unique('COC'),
    ...overrides,
  };
  const res = await ctx.http.post('/v1/companies').set(bearer(owner.token)).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as TestCompany;
}

/** A supplier linked to `companyId`, created by an admin. */
export async function createSupplier(
  ctx: TestContext,
  admin: TestUser,
  companyId: number,
  overrides: Record<string, unknown> = {},
): Promise<TestSupplier> {
  const body = {
    email: `${unique('sup')}@example.test`,
    name: unique('Supplier'),
    website: 'https://supplier.example.test',
    ...overrides,
  };
  const res = await ctx.http.post(`/v1/suppliers/${companyId}`).set(bearer(admin.token)).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as TestSupplier;
}

export async function addSupplierMember(
  ctx: TestContext,
  admin: TestUser,
  supplierId: number,
  userId: number,
): Promise<void> {
  const res = await ctx.http
    .post(`/v1/suppliers/${supplierId}/members`)
    .set(bearer(admin.token))
    .send({ user_id: userId });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

export async function addCompanyMember(
  ctx: TestContext,
  by: TestUser,
  companyId: number,
  userId: number,
): Promise<void> {
  const res = await ctx.http
    .post(`/v1/companies/${companyId}/members`)
    .set(bearer(by.token))
    .send({ user_id: userId });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

/** An intent token for `user` restricted to `companyId`. */
export async function createIntent(
  ctx: TestContext,
  user: TestUser,
  companyId: number,
): Promise<string> {
  const res = await ctx.http
    .post('/v1/intents')
    .set(bearer(user.token))
    .send({ company_id: companyId });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.token as string;
}

/** An API token (its secret) for `user`. */
export async function createApiToken(ctx: TestContext, user: TestUser): Promise<string> {
  const res = await ctx.http
    .post('/v1/tokens')
    .set(bearer(user.token))
    .send({ name: unique('token') });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.token as string;
}
