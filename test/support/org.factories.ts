import { expect } from 'vitest';
import { bearer, createUser, loginAdmin, unique, type TestUser } from './factories.js';
import type { HttpContext } from './test-app.js';

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

/** A valid body for POST /v1/companies, unique values throughout. */
export const companyBody = (overrides: Record<string, unknown> = {}) => ({
  email: `${unique('co')}@example.test`,
  name: unique('Company'),
  vat_number: unique('NL-VAT'),
  coc_number: unique('COC'),
  ...overrides,
});

/** A valid body for POST /v1/suppliers/{id}, unique values throughout. */
export const supplierBody = (overrides: Record<string, unknown> = {}) => ({
  email: `${unique('sup')}@example.test`,
  name: unique('Supplier'),
  website: 'https://supplier.example.test',
  ...overrides,
});

/** A company created by `owner` (who becomes its member). */
export async function createCompany(
  ctx: HttpContext,
  owner: TestUser,
  overrides: Record<string, unknown> = {},
): Promise<TestCompany> {
  const body = companyBody(overrides);
  const res = await ctx.http.post('/v1/companies').set(bearer(owner.token)).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as TestCompany;
}

/** A supplier linked to `companyId`, created by an admin. */
export async function createSupplier(
  ctx: HttpContext,
  admin: TestUser,
  companyId: number,
  overrides: Record<string, unknown> = {},
): Promise<TestSupplier> {
  const body = supplierBody(overrides);
  const res = await ctx.http.post(`/v1/suppliers/${companyId}`).set(bearer(admin.token)).send(body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as TestSupplier;
}

export async function addSupplierMember(
  ctx: HttpContext,
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
  ctx: HttpContext,
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
  ctx: HttpContext,
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
export async function createApiToken(ctx: HttpContext, user: TestUser): Promise<string> {
  const res = await ctx.http
    .post('/v1/tokens')
    .set(bearer(user.token))
    .send({ name: unique('token') });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.token as string;
}

/**
 * The people most organisation tests start from: the admin, a `member` with a `company`
 * of their own, and an `outsider` who belongs to no company (yet). Created in that order.
 */
export interface OrgWorld {
  admin: TestUser;
  member: TestUser;
  outsider: TestUser;
  company: TestCompany;
}

export async function createOrgWorld(ctx: HttpContext): Promise<OrgWorld> {
  const admin = await loginAdmin(ctx);
  const member = await createUser(ctx, admin);
  const outsider = await createUser(ctx, admin);
  const company = await createCompany(ctx, member);
  return { admin, member, outsider, company };
}
