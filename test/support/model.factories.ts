import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { pricedSizeModel } from '../../bench/faults/fault-models.mjs';
import { bearer, createUser, loginAdmin, unique, type TestUser } from './factories.js';
import {
  addCompanyMember,
  addSupplierMember,
  createCompany,
  createSupplier,
  type TestCompany,
  type TestSupplier,
} from './org.factories.js';
import type { HttpContext } from './test-app.js';

import { WINDOW_YAML_PATH } from './examples.js';

export { DOOR_DIR, EXAMPLES_DIR, WINDOW_YAML_PATH, zipFolder } from './examples.js';

export const windowYaml = (): string => readFileSync(WINDOW_YAML_PATH, 'utf8');

/** Version 2 of the window: aluminium 85.00 → 95.00, a new colour "black" (50.00) made for alu. */
export const windowV2 = (): string =>
  windowYaml()
    .replace('price: "85.00"', 'price: "95.00"')
    .replace(
      '      - key: oak\n        label: Oak finish\n        price: "60.00"\n',
      '      - key: oak\n        label: Oak finish\n        price: "60.00"\n' +
        '      - key: black\n        label: Black\n        price: "50.00"\n',
    )
    .replace('        - [wood, oak]\n', '        - [wood, oak]\n        - [alu, black]\n');

/** The model object of POST /v1/suppliers/{id}/models and friends. */
export interface TestModel {
  id: number;
  supplier_id: number;
  version_number: number;
  created_at: string;
  updated_at: string | null;
  locked_by_id: number | null;
  general: Record<string, unknown> & { name: string };
}

/**
 * Uploads a model as `token` (JWT or API token) and expects 201. A string is sent as
 * YAML, an object as JSON, a Buffer as a zip.
 */
export async function uploadModel(
  ctx: HttpContext,
  supplierId: number,
  token: string,
  model: string | Record<string, unknown> | Buffer,
): Promise<TestModel> {
  const res = await sendModel(ctx, 'post', `/v1/suppliers/${supplierId}/models`, token, model);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as TestModel;
}

/** A minimal model (`minimalModel`, a unique code unless given) uploaded to the world's supplier. */
export function uploadMinimalModel(
  ctx: HttpContext,
  world: ModelWorld,
  code = unique('M'),
): Promise<TestModel> {
  return uploadModel(ctx, world.supplier.id, world.supplierMember.token, minimalModel(code));
}

/** POST or PUT a model body without expectations (for error cases). */
export function sendModel(
  ctx: HttpContext,
  method: 'post' | 'put',
  url: string,
  token: string | null,
  model: string | Record<string, unknown> | Buffer,
  headers: Record<string, string> = {},
) {
  const request = ctx.http[method](url).set(headers);
  if (token !== null) request.set(bearer(token));
  if (Buffer.isBuffer(model)) return request.set('Content-Type', 'application/zip').send(model);
  if (typeof model === 'string') return request.set('Content-Type', 'application/yaml').send(model);
  return request.set('Content-Type', 'application/json').send(JSON.stringify(model));
}

/**
 * A small valid model with a unique code (so several fit in one supplier): one required
 * size, S or L at 10.00 more, at a base price of 100.00 (the benches' priced size model).
 */
export function minimalModel(code: string, name = `Model ${code}`): Record<string, unknown> {
  return pricedSizeModel(code, name);
}

/**
 * A model whose compile takes a worker well past a few milliseconds (a rule over each of
 * `size` questions, 200 by default): for tests of compile lanes, queues and their metrics.
 */
export function slowCompileModel(code: string, size = 200): Record<string, unknown> {
  const options = Array.from({ length: 10 }, (_, o) => ({ key: `o${o}`, label: `Option ${o}` }));
  return {
    general: { name: `Slow ${code}`, code },
    questions: Array.from({ length: size }, (_, q) => ({
      key: `q${q}`,
      type: 'choice',
      label: `Question ${q}`,
      options,
    })),
    rules: Array.from({ length: size }, (_, r) => ({
      key: `r${r}`,
      when: `q${r} != null`,
      assert: `q${r} != 'o9' || q${(r + 1) % size} != 'o9'`,
      message: 'not both',
    })),
  };
}

/**
 * The people and organisations most model and cart tests need: an admin, a company
 * (its member: `companyMember`), a supplier linked to it (its member: `supplierMember`),
 * and an outsider who belongs to neither.
 */
export interface ModelWorld {
  admin: TestUser;
  company: TestCompany;
  supplier: TestSupplier;
  supplierMember: TestUser;
  companyMember: TestUser;
  outsider: TestUser;
}

export async function createModelWorld(ctx: HttpContext): Promise<ModelWorld> {
  const admin = await loginAdmin(ctx);
  const companyMember = await createUser(ctx, admin);
  const company = await createCompany(ctx, companyMember);
  const supplier = await createSupplier(ctx, admin, company.id);
  const supplierMember = await createUser(ctx, admin);
  await addSupplierMember(ctx, admin, supplier.id, supplierMember.id);
  const outsider = await createUser(ctx, admin);
  return { admin, company, supplier, supplierMember, companyMember, outsider };
}

/** Another member of the world's company, added by the admin. */
export async function createCompanyMember(ctx: HttpContext, world: ModelWorld): Promise<TestUser> {
  const user = await createUser(ctx, world.admin);
  await addCompanyMember(ctx, world.admin, world.company.id, user.id);
  return user;
}
