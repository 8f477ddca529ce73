import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, expectEnvelope, unique } from '../support/factories.js';
import {
  createCompanyMember,
  createModelWorld,
  minimalModel,
  uploadModel,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { addCompanyMember, createCompany, createIntent } from '../support/org.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/** An add with an intent token and no cart_id always lands in a cart the intent may use. */
describe('intent-token carts: POST /v1/carts without cart_id', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let eurModel: TestModel;
  let usdModel: TestModel;

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    const upload = (currency: string) => {
      const model = minimalModel(unique('M'));
      (model.general as Record<string, unknown>).currency = currency;
      return uploadModel(ctx, world.supplier.id, world.supplierMember.token, model);
    };
    eurModel = await upload('EUR');
    usdModel = await upload('USD');
  });
  afterAll(() => ctx?.close());

  const add = (token: string, model: TestModel, companyId = world.company.id) =>
    ctx.http
      .post('/v1/carts')
      .set(bearer(token))
      .send({ model_id: model.id, company_id: companyId, questions: { size: { values: ['s'] } } });
  const cartOf = (res: { body: { data: { cart_id: string } } }) => res.body.data.cart_id;
  const cartsSeenBy = async (token: string) =>
    expectEnvelope(await ctx.http.get('/v1/carts').set(bearer(token)), 200).data as {
      cart_id: string;
      default: boolean;
      company_id: number | null;
    }[];

  it('uses the intent’s own cart when the default cart was made without a company', async () => {
    const user = await createCompanyMember(ctx, world);
    const byJwtAdd = await add(user.token, eurModel);
    expect(byJwtAdd.status).toBe(201);
    const byJwt = cartOf(byJwtAdd);
    const intent = await createIntent(ctx, user, world.company.id);

    const first = await add(intent, eurModel);
    expect(first.status).toBe(201);
    const second = await add(intent, eurModel);
    expect(second.status).toBe(201);
    expect(cartOf(second)).toBe(cartOf(first));
    expect(cartOf(first)).not.toBe(byJwt);

    // The intent sees that cart (recorded with its company); the JWT default stays put.
    const seen = await cartsSeenBy(intent);
    expect(seen).toEqual([
      expect.objectContaining({
        cart_id: cartOf(first),
        default: false,
        company_id: world.company.id,
      }),
    ]);
    const all = await cartsSeenBy(user.token);
    expect(all.find((c) => c.default)?.cart_id).toBe(byJwt);
    const detail = await ctx.http.get(`/v1/carts/${cartOf(first)}`).set(bearer(intent));
    expect(expectEnvelope(detail, 200).data).toMatchObject({ line_count: 2 });
  });

  it('uses the default cart when the intent may see it', async () => {
    const user = await createCompanyMember(ctx, world);
    const intent = await createIntent(ctx, user, world.company.id);
    // The user's first cart, made through the intent: the default, recorded with the company.
    const first = await add(intent, eurModel);
    expect(first.status).toBe(201);
    const defaultCart = await ctx.http.get('/v1/carts/default').set(bearer(user.token));
    expect(expectEnvelope(defaultCart, 200).data).toMatchObject({ cart_id: cartOf(first) });
    expect(cartOf(await add(intent, eurModel))).toBe(cartOf(first));
  });

  it('gives one cart per user and company to concurrent first adds', async () => {
    const user = await createCompanyMember(ctx, world);
    await add(user.token, eurModel);
    const intent = await createIntent(ctx, user, world.company.id);
    const results = await Promise.all(Array.from({ length: 6 }, () => add(intent, eurModel)));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(new Set(results.map(cartOf)).size).toBe(1);
    expect(await cartsSeenBy(intent)).toHaveLength(1);
  });

  it('keeps one cart per company for a user buying through two shops', async () => {
    const user = await createCompanyMember(ctx, world);
    await add(user.token, eurModel);
    const otherCompany = await createCompany(ctx, user);
    const link = await ctx.http
      .post(`/v1/companies/${otherCompany.id}/suppliers`)
      .set(bearer(world.admin.token))
      .send({ supplier_id: world.supplier.id });
    expect(link.status).toBe(201);
    const here = await createIntent(ctx, user, world.company.id);
    const there = await createIntent(ctx, user, otherCompany.id);
    const inHere = cartOf(await add(here, eurModel));
    const inThere = cartOf(await add(there, eurModel, otherCompany.id));
    expect(inThere).not.toBe(inHere);
    expect((await cartsSeenBy(there)).map((c) => c.cart_id)).toEqual([inThere]);
  });

  it('moves a line the chosen default cannot take (another currency) to the intent’s cart', async () => {
    const user = await createCompanyMember(ctx, world);
    const intent = await createIntent(ctx, user, world.company.id);
    const eur = cartOf(await add(intent, eurModel)); // the default, the company's
    const usd = await add(intent, usdModel);
    expect(usd.status).toBe(201);
    expect(cartOf(usd)).not.toBe(eur);
    expect(cartOf(await add(intent, usdModel))).toBe(cartOf(usd));
  });

  it('still refuses a cart the shop named that cannot take the line', async () => {
    const user = await createCompanyMember(ctx, world);
    const intent = await createIntent(ctx, user, world.company.id);
    const eur = cartOf(await add(intent, eurModel));
    const named = await ctx.http
      .post('/v1/carts')
      .set(bearer(intent))
      .send({
        model_id: usdModel.id,
        company_id: world.company.id,
        cart_id: eur,
        questions: { size: { values: ['s'] } },
      });
    const body = expectEnvelope(named, 401);
    expect(body.errors).toEqual([expect.objectContaining({ code: 'currency_mismatch' })]);
  });

  it('leaves a JWT caller’s choice alone: no intent cart is made for it', async () => {
    const user = await createUser(ctx, world.admin);
    await addCompanyMember(ctx, world.admin, world.company.id, user.id);
    const eur = cartOf(await add(user.token, eurModel));
    const usd = await add(user.token, usdModel);
    expect(usd.status).toBe(401);
    expect((await cartsSeenBy(user.token)).map((c) => c.cart_id)).toEqual([eur]);
  });
});
