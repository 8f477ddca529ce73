import { DataSource } from 'typeorm';
import { expect } from 'vitest';
import type { Principal } from '../../src/principal/principal.js';
import { CartLineEntity } from '../../src/carts/cart-line.entity.js';
import { CartEntity } from '../../src/carts/cart.entity.js';
import { ApiError } from '../../src/common/errors/api-error.js';
import type { CartLine } from '../../src/engine/work.js';
import { ModelEntity } from '../../src/models/model.entity.js';
import { SupplierEntity } from '../../src/suppliers/supplier.entity.js';
import { bearer, unique, type TestUser } from './factories.js';
import { createCompany, createOrgWorld } from './org.factories.js';
import type { TestContext } from './test-app.js';

/*
 * Cart tests need models and lines before their endpoints exist, so these helpers write
 * those rows straight through the repositories (foreign keys still apply).
 */

export interface TestCart {
  cart_id: string;
  reference: string;
  default: boolean;
  company_id: number | null;
  created_at: string;
}

/** POST /v1/carts/new as `token` (a JWT or an intent token); expects 201. */
export async function createCart(
  ctx: TestContext,
  token: string,
  body: { reference?: string; default?: boolean } = {},
): Promise<TestCart> {
  const res = await ctx.http
    .post('/v1/carts/new')
    .set(bearer(token))
    .send({ reference: unique('cart'), ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as TestCart;
}

/** A company created by `member` through POST /v1/companies (the creator becomes a member). */
export async function newCompany(ctx: TestContext, member: TestUser): Promise<number> {
  return (await createCompany(ctx, member)).id;
}

/** A supplier and one model of it (version 1, no stored definition needed for lines). */
export async function insertModel(ctx: TestContext): Promise<number> {
  const dataSource = ctx.app.get(DataSource);
  const supplier = dataSource.getRepository(SupplierEntity).create({
    email: `${unique('sup')}@example.test`,
    name: unique('Supplier'),
    website: 'https://supplier.example.test',
    contactPerson: null,
    phoneNumber: null,
    vatNumber: null,
    cocNumber: null,
  });
  await dataSource.getRepository(SupplierEntity).save(supplier);
  const model = dataSource.getRepository(ModelEntity).create({
    supplierId: supplier.id,
    name: 'Window',
    code: unique('window'),
    versionNumber: 1,
    lockedById: null,
    lockedAt: null,
    updatedAt: null,
  });
  await dataSource.getRepository(ModelEntity).save(model);
  return model.id;
}

/** The engine's line for a one-question model priced at `total` (every member present). */
function storedLine(modelId: number, currency: string, total: string): CartLine {
  return {
    version_number: 1,
    general: { model_id: modelId, name: 'Window', currency, default_language: 'en' },
    imports: [],
    questions: [
      {
        key: 'width',
        type: 'integer',
        label: 'Width',
        visible: true,
        required: true,
        values: [1200],
        source: 'user',
        discarded: [],
        suppressed: [],
      },
    ],
    variables: {},
    displayed_variables: [],
    rules: [],
    triggers: [],
    bom_items: [],
    pricing: {
      currency,
      base_price: total,
      options_total: '0.00',
      bom_total: '0.00',
      adjustments: [],
      subtotal: total,
      total,
    },
    translation: { language: 'en', fallback_used: false, missing: [] },
    images: [],
    consistency: { exact: true, configurations: '1' },
    cache: { fingerprint: '0'.repeat(64), engine_version: '1.0.0', evaluated_in_ms: 0.1 },
  };
}

/** A stored cart line, shaped like one POST /v1/carts will store. */
export async function insertLine(
  ctx: TestContext,
  input: { cartId: string; modelId: number; companyId: number; total: string; currency?: string },
): Promise<CartLineEntity> {
  const currency = input.currency ?? 'EUR';
  const repository = ctx.app.get(DataSource).getRepository(CartLineEntity);
  const line = repository.create({
    cartId: input.cartId,
    modelId: input.modelId,
    versionNumber: 1,
    companyId: input.companyId,
    languageCode: 'en',
    answers: { width: { values: [1200] } },
    line: storedLine(input.modelId, currency, input.total) as unknown as Record<string, unknown>,
    total: input.total,
    currency,
  });
  return repository.save(line);
}

/** How many carts (or default carts) the user has, read from the database. */
export function countCarts(
  ctx: TestContext,
  userId: number,
  only: { isDefault?: true } = {},
): Promise<number> {
  return ctx.app
    .get(DataSource)
    .getRepository(CartEntity)
    .countBy({ userId, ...only });
}

/** The principal a JWT (or, with `companyId`, an intent token) of `user` yields. */
export function principalOf(user: TestUser, companyId?: number): Principal {
  return {
    userId: user.id,
    email: user.email,
    role: 'member',
    via: companyId === undefined ? 'jwt' : 'intent',
    companyId: companyId ?? null,
    tokenId: null,
    familyId: null,
  };
}

/** The HTTP status a service call was refused with ('resolved' when it was not). */
export function refusalStatus(promise: Promise<unknown>): Promise<number | string> {
  return promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof ApiError ? error.getStatus() : String(error)),
  );
}

/**
 * The world of the cart tests: the admin, `alice` (member of `companyA`), `bob` (no
 * company) and one model to put in lines.
 */
export interface CartWorld {
  admin: TestUser;
  alice: TestUser;
  bob: TestUser;
  companyA: number;
  modelId: number;
}

export async function createCartWorld(ctx: TestContext): Promise<CartWorld> {
  const { admin, member, outsider, company } = await createOrgWorld(ctx);
  const modelId = await insertModel(ctx);
  return { admin, alice: member, bob: outsider, companyA: company.id, modelId };
}
