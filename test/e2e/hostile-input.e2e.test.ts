import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectEnvelope, loginAdmin, type TestUser } from '../support/factories.js';
import {
  createModelWorld,
  minimalModel,
  sendModel,
  uploadModel,
  type ModelWorld,
} from '../support/model.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/** Client mistakes, however odd, are 4xx answers: never a 500 (docs/api.md, "Statuses"). */
describe('hostile or absurd input', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let world: ModelWorld;

  beforeAll(async () => {
    ctx = await createTestApp();
    admin = await loginAdmin(ctx);
    world = await createModelWorld(ctx);
  });
  afterAll(() => ctx?.close());

  const deeplyNested = (depth: number) => '{"x":'.repeat(depth) + '1' + '}'.repeat(depth);

  it('refuses JSON nested deeper than 64 levels with the route’s invalid-body status', async () => {
    const send = (path: string, body: string, token?: string) => {
      const req = ctx.http.post(path).set('Content-Type', 'application/json');
      if (token) req.set(bearer(token));
      return req.send(body);
    };
    const login = expectEnvelope(await send('/v1/login', deeplyNested(5000)), 400);
    expect(login.errors).toEqual([expect.objectContaining({ code: 'malformed_json' })]);
    expectEnvelope(await send('/v1/companies', deeplyNested(5000), admin.token), 401);
    expectEnvelope(await send('/v1/carts', deeplyNested(100), admin.token), 401);
    // 64 levels are still fine as JSON (and then just an invalid body).
    expectEnvelope(await send('/v1/login', deeplyNested(60)), 400);
  });

  it('refuses a 4 kB chain of unary operators as nesting (400 syntax_error), not a 500', async () => {
    for (const expr of ['!'.repeat(4_000) + 'true', '-'.repeat(2_500) + '1']) {
      const model = { ...minimalModel('DEEP'), variables: [{ key: 'v', expr }] };
      const res = await sendModel(
        ctx,
        'post',
        `/v1/suppliers/${world.supplier.id}/models`,
        world.supplierMember.token,
        model,
      );
      expect(expectEnvelope(res, 400).errors).toEqual([
        expect.objectContaining({
          code: 'syntax_error',
          message: 'invalid CEL: Exceeded maxDepth (250)',
          path: 'variables.v.expr',
        }),
      ]);
    }
  });

  it('answers absurd page numbers with 400, not a database error', async () => {
    for (const page of ['1e22', '1152921504606846976', '1000001']) {
      expectEnvelope(
        await ctx.http.get(`/v1/companies?page=${page}`).set(bearer(admin.token)),
        400,
      );
    }
  });

  it('answers ids beyond the integer range with 404 in paths and 400/401 in bodies', async () => {
    const big = '99999999999';
    expectEnvelope(await ctx.http.get(`/v1/companies/${big}`).set(bearer(admin.token)), 404);
    expectEnvelope(await ctx.http.get(`/v1/models/${big}`).set(bearer(admin.token)), 404);
    expectEnvelope(await ctx.http.delete(`/v1/tokens/${big}`).set(bearer(admin.token)), 404);
    expectEnvelope(
      await ctx.http.post(`/v1/suppliers/${big}/models`).set(bearer(admin.token)).send({}),
      404,
    );
    const line = await ctx.http
      .post('/v1/carts')
      .set(bearer(admin.token))
      .send({ model_id: 3_000_000_000, company_id: 1, questions: {} });
    expect(expectEnvelope(line, 401).errors).toEqual([
      expect.objectContaining({ path: 'model_id' }),
    ]);
    expectEnvelope(
      await ctx.http
        .post('/v1/intents')
        .set(bearer(admin.token))
        .send({ company_id: 3_000_000_000 }),
      400,
    );
  });

  it('refuses an over-long language_code as an invalid body before anything is stored', async () => {
    const model = await uploadModel(
      ctx,
      world.supplier.id,
      world.supplierMember.token,
      minimalModel('LANG'),
    );
    const res = await ctx.http
      .post('/v1/carts')
      .set(bearer(world.companyMember.token))
      .send({
        model_id: model.id,
        company_id: world.company.id,
        language_code: 'en-abcdefgh-abcdefgh-abcdefgh-abcdefgh',
        questions: { size: { values: ['s'] } },
      });
    expect(expectEnvelope(res, 401).errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: 'language_code' })]),
    );
  });

  it('lets only one of two lines in different currencies race into an empty cart', async () => {
    const eur = await uploadModel(
      ctx,
      world.supplier.id,
      world.supplierMember.token,
      minimalModel('CUR-EUR'),
    );
    const usd = await uploadModel(ctx, world.supplier.id, world.supplierMember.token, {
      ...minimalModel('CUR-USD'),
      general: { name: 'Dollar model', code: 'CUR-USD', currency: 'USD' },
    });
    for (let attempt = 0; attempt < 3; attempt++) {
      const cart = await ctx.http
        .post('/v1/carts/new')
        .set(bearer(world.companyMember.token))
        .send({ reference: `race ${attempt}` });
      const cartId = cart.body.data.cart_id as string;
      const add = (modelId: number) =>
        ctx.http
          .post('/v1/carts')
          .set(bearer(world.companyMember.token))
          .send({
            model_id: modelId,
            company_id: world.company.id,
            cart_id: cartId,
            questions: { size: { values: ['s'] } },
          });
      const statuses = (await Promise.all([add(eur.id), add(usd.id)])).map((r) => r.status).sort();
      expect(statuses).toEqual([201, 401]);
      const detail = await ctx.http
        .get(`/v1/carts/${cartId}`)
        .set(bearer(world.companyMember.token));
      expect(detail.body.data.lines).toHaveLength(1);
    }
  });
});
