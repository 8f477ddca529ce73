import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectEnvelope, type TestUser } from '../support/factories.js';
import {
  createCompanyMember,
  createModelWorld,
  sendModel,
  uploadModel,
  windowV2,
  windowYaml,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { createIntent } from '../support/org.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';
import { OPENAPI_PATH } from '../support/openapi-validator.js';

type OpenApi = {
  paths: Record<string, Record<string, { responses: Record<string, { headers?: object }> }>>;
};

/** 1200 × 1000, PVC, white: 253.44 (see cart-lines.e2e.test.ts). */
const PVC_WHITE = {
  width: { values: [1200] },
  height: { values: [1000] },
  color: { values: ['white'] },
};
/** The same in aluminium, anthracite: options 85 + 40, alu profile 4.4 × 21 = 92.40. */
const ALU_ANTHRACITE = {
  width: { values: [1200] },
  height: { values: [1000] },
  frame: { values: ['alu'] },
  color: { values: ['anthracite'] },
};

describe('PUT /v1/carts/{cart_id}/lines/{line_id}: reconfigure a line', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let other: ModelWorld;
  let window: TestModel;

  const add = (token: string, questions: Record<string, unknown>, cartId?: string) =>
    ctx.http
      .post('/v1/carts')
      .set(bearer(token))
      .send({
        model_id: window.id,
        company_id: world.company.id,
        questions,
        ...(cartId ? { cart_id: cartId } : {}),
      });
  const put = (
    token: string,
    cartId: string,
    lineId: number,
    body: Record<string, unknown>,
    ifMatch?: string,
  ) => {
    const request = ctx.http.put(`/v1/carts/${cartId}/lines/${lineId}`).set(bearer(token));
    if (ifMatch !== undefined) request.set('If-Match', ifMatch);
    return request.send(body);
  };
  const cartOf = async (token: string, cartId: string) =>
    expectEnvelope(await ctx.http.get(`/v1/carts/${cartId}`).set(bearer(token)), 200).data as {
      total: string;
      lines: Array<Record<string, any>>;
    };

  async function lineOf(buyer: TestUser, questions = PVC_WHITE) {
    const added = expectEnvelope(await add(buyer.token, questions), 201).data as {
      id: number;
      cart_id: string;
    };
    return { lineId: added.id, cartId: added.cart_id };
  }

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    other = await createModelWorld(ctx);
    window = await uploadModel(ctx, world.supplier.id, world.supplierMember.token, windowYaml());
  });
  afterAll(() => ctx?.close());

  it('replaces the line in place with the new answers; its ETag moves on', async () => {
    const buyer = await createCompanyMember(ctx, world);
    const { lineId, cartId } = await lineOf(buyer);
    const before = await cartOf(buyer.token, cartId);
    expect(before.lines[0]).toMatchObject({ id: lineId, etag: '"1"', total: '253.44' });

    const res = await put(buyer.token, cartId, lineId, { questions: ALU_ANTHRACITE }, '"1"');
    const body = expectEnvelope(res, 200);
    expect(body.message).toBe('Cart line reconfigured');
    expect(res.headers.etag).toBe('"2"');
    const line = body.data as Record<string, any>;
    expect(line).toMatchObject({
      id: lineId,
      cart_id: cartId,
      model_id: window.id,
      company_id: world.company.id,
      version_number: 1,
      warnings: [],
    });
    // 150 + 125 options + (92.40 + 45.60 + 31.00) BOM = 444.00, −10 % = 399.60
    expect(line.pricing.total).toBe('399.60');

    const after = await cartOf(buyer.token, cartId);
    expect(after.total).toBe('399.60');
    expect(after.lines).toHaveLength(1);
    expect(after.lines[0]).toMatchObject({
      id: lineId,
      etag: '"2"',
      answers: ALU_ANTHRACITE,
      total: '399.60',
      latest_version_number: null,
    });

    // A stale If-Match is refused, the current one (and none) accepted.
    const stale = expectEnvelope(
      await put(buyer.token, cartId, lineId, { questions: PVC_WHITE }, '"1"'),
      409,
    );
    expect((stale.errors as Array<{ code: string }>)[0].code).toBe('stale_line');
    expectEnvelope(await put(buyer.token, cartId, lineId, { questions: PVC_WHITE }, 'W/"2"'), 200);
    expectEnvelope(
      await put(buyer.token, cartId, lineId, { questions: PVC_WHITE, language_code: 'nl' }),
      200,
    );
    const last = await cartOf(buyer.token, cartId);
    expect(last.lines[0]).toMatchObject({ etag: '"4"', language_code: 'nl', total: '253.44' });
  });

  it("answers an add with the line's ETag (body and header), which a PUT takes without reading the cart", async () => {
    const buyer = await createCompanyMember(ctx, world);
    const res = await add(buyer.token, PVC_WHITE);
    const added = expectEnvelope(res, 201).data as { id: number; cart_id: string; etag: string };
    expect(added.etag).toBe('"1"');
    expect(res.headers.etag).toBe(added.etag);
    const put1 = await put(
      buyer.token,
      added.cart_id,
      added.id,
      { questions: ALU_ANTHRACITE },
      added.etag,
    );
    const replaced = expectEnvelope(put1, 200).data as { etag: string };
    expect(replaced.etag).toBe('"2"');
    expect(put1.headers.etag).toBe('"2"');
    // The OpenAPI document says so, for clients generated from it.
    const paths = (JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as OpenApi).paths;
    expect(paths['/v1/carts'].post.responses['201'].headers).toHaveProperty('ETag');
    const line = paths['/v1/carts/{cart_id}/lines/{line_id}'];
    expect(line.put.responses['200'].headers).toHaveProperty('ETag');
  });

  it('lets one of two concurrent replacements of the same ETag through; the other is 409', async () => {
    const buyer = await createCompanyMember(ctx, world);
    const { lineId, cartId } = await lineOf(buyer);
    const results = await Promise.all([
      put(buyer.token, cartId, lineId, { questions: ALU_ANTHRACITE }, '"1"'),
      put(buyer.token, cartId, lineId, { questions: PVC_WHITE, language_code: 'nl' }, '"1"'),
    ]);
    expect(results.map((res) => res.status).sort()).toEqual([200, 409]);
    const winner = results.find((res) => res.status === 200)!;
    const cart = await cartOf(buyer.token, cartId);
    expect(cart.lines[0].etag).toBe('"2"');
    expect(cart.lines[0].total).toBe((winner.body.data as any).pricing.total);
    // Without If-Match the last one wins, each counted.
    await Promise.all([
      put(buyer.token, cartId, lineId, { questions: PVC_WHITE }),
      put(buyer.token, cartId, lineId, { questions: PVC_WHITE }),
    ]).then((all) => expect(all.map((res) => res.status)).toEqual([200, 200]));
    expect((await cartOf(buyer.token, cartId)).lines[0].etag).toBe('"4"');
  });

  it('refuses like POST /v1/carts and stores nothing', async () => {
    const buyer = await createCompanyMember(ctx, world);
    const { lineId, cartId } = await lineOf(buyer);
    const bad = { ...PVC_WHITE, width: { values: [5000] }, colour: { values: ['x'] } };
    const refused = expectEnvelope(await put(buyer.token, cartId, lineId, { questions: bad }), 401);
    expect((refused.errors as Array<{ path: string }>).map((p) => p.path)).toEqual(
      expect.arrayContaining(['questions.width.values[0]', 'questions.colour']),
    );
    // The model and company are the line's: the body may not name them.
    expectEnvelope(
      await put(buyer.token, cartId, lineId, { questions: PVC_WHITE, model_id: window.id }),
      400,
    );
    expectEnvelope(await put(buyer.token, cartId, lineId, {}), 400);
    expectEnvelope(await put(buyer.token, cartId, 999999, { questions: PVC_WHITE }), 404);
    const cart = await cartOf(buyer.token, cartId);
    expect(cart.lines[0]).toMatchObject({ etag: '"1"', answers: PVC_WHITE, total: '253.44' });
  });

  it('keeps the line on its version after a new one, which the line reports', async () => {
    const buyer = await createCompanyMember(ctx, world);
    const { lineId, cartId } = await lineOf(buyer, ALU_ANTHRACITE);
    const model = await ctx.http
      .get(`/v1/models/${window.id}`)
      .set(bearer(world.supplierMember.token));
    const version = (model.body.data as { version_number: number }).version_number;
    const v2 = await sendModel(
      ctx,
      'put',
      `/v1/models/${window.id}`,
      world.supplierMember.token,
      windowV2(),
    );
    expectEnvelope(v2, 200);
    const cart = await cartOf(buyer.token, cartId);
    expect(cart.lines[0]).toMatchObject({
      version_number: version,
      latest_version_number: version + 1,
    });
    // Reconfigured on its own version: alu still at 85.00.
    const res = expectEnvelope(
      await put(buyer.token, cartId, lineId, { questions: ALU_ANTHRACITE }),
      200,
    );
    const line = res.data as Record<string, any>;
    expect(line.version_number).toBe(version);
    expect(line.pricing.total).toBe('399.60');
    // "black" exists only from version 2: refused on the line's version.
    const black = { ...ALU_ANTHRACITE, color: { values: ['black'] } };
    expectEnvelope(await put(buyer.token, cartId, lineId, { questions: black }), 401);
  });

  it('keeps lines to their user and intent tokens to their company, in both directions', async () => {
    const buyer = await createCompanyMember(ctx, world);
    const { lineId, cartId } = await lineOf(buyer);
    const body = { questions: ALU_ANTHRACITE };
    expectEnvelope(await put(other.companyMember.token, cartId, lineId, body), 404);
    expectEnvelope(await put(world.companyMember.token, cartId, lineId, body), 404);
    expectEnvelope(await put(world.admin.token, cartId, lineId, body), 404);
    // The other tenant's line, reached by this buyer: 404 too.
    const otherModel = await uploadModel(
      ctx,
      other.supplier.id,
      other.supplierMember.token,
      windowYaml(),
    );
    const theirs = expectEnvelope(
      await ctx.http
        .post('/v1/carts')
        .set(bearer(other.companyMember.token))
        .send({ model_id: otherModel.id, company_id: other.company.id, questions: PVC_WHITE }),
      201,
    ).data as { id: number; cart_id: string };
    expectEnvelope(await put(buyer.token, theirs.cart_id, theirs.id, body), 404);
    expectEnvelope(await put(buyer.token, cartId, theirs.id, body), 404);

    // An intent token sees its company's carts only: not this JWT cart.
    const intent = await createIntent(ctx, buyer, world.company.id);
    expectEnvelope(await put(intent, cartId, lineId, body), 404);
    const otherIntent = await createIntent(ctx, other.companyMember, other.company.id);
    // Its own company's cart: reconfigured.
    const shopCart = expectEnvelope(
      await ctx.http.post('/v1/carts/new').set(bearer(intent)).send({ reference: 'shop' }),
      201,
    ).data as { cart_id: string };
    const shopLine = expectEnvelope(await add(intent, PVC_WHITE, shopCart.cart_id), 201).data as {
      id: number;
    };
    expectEnvelope(await put(otherIntent, shopCart.cart_id, shopLine.id, body), 404);
    expectEnvelope(await put(intent, shopCart.cart_id, shopLine.id, body), 200);
  });

  it('refuses 403 once the caller may no longer configure the line (read with the line), storing nothing', async () => {
    const buyer = await createCompanyMember(ctx, world);
    const { lineId, cartId } = await lineOf(buyer);
    // The buyer leaves the company: the cart stays theirs, its line no longer configurable.
    expectEnvelope(
      await ctx.http
        .delete(`/v1/companies/${world.company.id}/members/${buyer.id}`)
        .set(bearer(buyer.token)),
      200,
    );
    const refused = expectEnvelope(
      await put(buyer.token, cartId, lineId, { questions: ALU_ANTHRACITE }),
      403,
    );
    expect((refused.errors as Array<{ code: string }>)[0].code).toBe('not_accessible');
    // A stale ETag is still told first, as before the access check.
    expectEnvelope(await put(buyer.token, cartId, lineId, { questions: PVC_WHITE }, '"7"'), 409);
    expect((await cartOf(buyer.token, cartId)).lines[0]).toMatchObject({
      etag: '"1"',
      answers: PVC_WHITE,
    });
    // An admin, no member of the company, configures it by the admin's rule (it exists).
    const mine = expectEnvelope(
      await ctx.http
        .post('/v1/carts')
        .set(bearer(world.admin.token))
        .send({ model_id: window.id, company_id: world.company.id, questions: PVC_WHITE }),
      201,
    ).data as { id: number; cart_id: string };
    const moved = expectEnvelope(
      await put(world.admin.token, mine.cart_id, mine.id, { questions: ALU_ANTHRACITE }, '"1"'),
      200,
    );
    expect(moved.data).toMatchObject({ id: mine.id });
    const adminCart = await cartOf(world.admin.token, mine.cart_id);
    expect(adminCart.lines.find((line) => line.id === mine.id)).toMatchObject({
      etag: '"2"',
      answers: ALU_ANTHRACITE,
    });
  });

  it('refuses a retired model’s lines (409) and leaves them readable', async () => {
    const buyer = await createCompanyMember(ctx, world);
    const { lineId, cartId } = await lineOf(buyer);
    const supplier = world.supplierMember.token;
    expectEnvelope(
      await ctx.http.post(`/v1/models/${window.id}/retire`).set(bearer(supplier)),
      200,
    );
    try {
      const refused = expectEnvelope(
        await put(buyer.token, cartId, lineId, { questions: ALU_ANTHRACITE }),
        409,
      );
      expect((refused.errors as Array<{ code: string }>)[0].code).toBe('model_retired');
      expect((await cartOf(buyer.token, cartId)).lines[0].etag).toBe('"1"');
    } finally {
      expectEnvelope(
        await ctx.http.delete(`/v1/models/${window.id}/retire`).set(bearer(supplier)),
        200,
      );
    }
  });
});
