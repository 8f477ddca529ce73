import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectEnvelope } from '../support/factories.js';
import { answers, deskModel, deskV2, inCurrency } from '../support/guided.factories.js';
import {
  createModelWorld,
  sendModel,
  uploadModel,
  type ModelWorld,
} from '../support/model.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

type Line = Record<string, any>;

/** A small pine desk with three legs: 100 + 20 = 120.00 on version 1. */
const SMALL_PINE = answers({ size: 's', top: 'pine', legs: 3 });
/** On version 2 pine is gone: the nearest valid configuration takes oak, 160.00. */
const PINE_TO_OAK = { question: 'top', from: ['pine'], to: ['oak'] };

/**
 * Moving stored lines to a newer version of their model (docs/model-format.md "Guided
 * configuration"): PUT with `version_number`, and recheck `apply`, by the same resolution.
 */
describe('moving cart lines to a newer model version by the nearest valid configuration', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let desk: Record<string, unknown>;
  let deskId: number;
  let token: string;
  /** Lines added on version 1, each in a cart of its own (before version 2). */
  const onV1: Record<'moved' | 'kept' | 'byNumber' | 'rechecked', { id: number; cart_id: string }> =
    {} as never;

  const add = async (questions: Record<string, unknown>, cartId?: string) =>
    expectEnvelope(
      await ctx.http
        .post('/v1/carts')
        .set(bearer(token))
        .send({ model_id: deskId, company_id: world.company.id, questions, cart_id: cartId }),
      201,
    ).data as { id: number; cart_id: string };
  const put = (cartId: string, lineId: number, body: Record<string, unknown>, ifMatch?: string) => {
    const request = ctx.http.put(`/v1/carts/${cartId}/lines/${lineId}`).set(bearer(token));
    if (ifMatch !== undefined) request.set('If-Match', ifMatch);
    return request.send(body);
  };
  const recheck = (cartId: string, lineId: number, body = {}) =>
    ctx.http.post(`/v1/carts/${cartId}/lines/${lineId}/recheck`).set(bearer(token)).send(body);
  const cart = async (cartId: string) =>
    expectEnvelope(await ctx.http.get(`/v1/carts/${cartId}`).set(bearer(token)), 200).data as Line;
  const newCart = async () =>
    (
      expectEnvelope(
        await ctx.http.post('/v1/carts/new').set(bearer(token)).send({ reference: 'desks' }),
        201,
      ).data as { cart_id: string }
    ).cart_id;
  const newVersion = async (model: Record<string, unknown>) =>
    expectEnvelope(
      await sendModel(ctx, 'put', `/v1/models/${deskId}`, world.supplierMember.token, model),
      200,
    );

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    token = world.companyMember.token;
    desk = deskModel();
    deskId = (await uploadModel(ctx, world.supplier.id, world.supplierMember.token, desk)).id;
    const first = await newCart();
    onV1.moved = await add(SMALL_PINE, first);
    onV1.kept = await add(answers({ size: 'l', top: 'oak', legs: 4 }), first);
    onV1.byNumber = await add(answers({ size: 's', top: 'oak', legs: 2 }), await newCart());
    onV1.rechecked = await add(SMALL_PINE, await newCart());
    expect((await cart(first)).total).toBe('320.00');
    await newVersion(deskV2(desk));
  });
  afterAll(() => ctx?.close());

  it('moves a line whose option version 2 removed, with the one change listed; the cart total follows', async () => {
    const { moved: line, kept } = onV1;
    const cartId = line.cart_id;
    // The read says the model has moved on; the line is as it was.
    const before = await cart(cartId);
    expect(before.lines[0]).toMatchObject({ version_number: 1, latest_version_number: 2 });
    // Its answers as they are, on version 2: refused by the recheck, nothing stored.
    const checked = expectEnvelope(await recheck(cartId, line.id), 200).data as Line;
    expect(checked.valid).toBe(false);

    const res = await put(cartId, line.id, { version_number: 'latest' }, '"1"');
    const moved = expectEnvelope(res, 200).data as Line;
    expect(res.headers.etag).toBe('"2"');
    expect(moved).toMatchObject({ id: line.id, version_number: 2 });
    expect(moved.resolution).toEqual({ changes: [PINE_TO_OAK], exact: true });
    expect(moved.pricing.total).toBe('160.00');

    const after = await cart(cartId);
    expect(after.lines[0]).toMatchObject({
      id: line.id,
      version_number: 2,
      latest_version_number: null,
      etag: '"2"',
      total: '160.00',
      answers: answers({ size: 's', top: 'oak', legs: 3 }),
    });
    expect(after.lines[1]).toMatchObject({ id: kept.id, version_number: 1 });
    expect(after.total).toBe('360.00');
    expect(after.totals).toEqual([{ currency: 'EUR', total: '360.00' }]);
  });

  it('moves with the body’s answers, to a version by number, under If-Match', async () => {
    const line = onV1.byNumber;
    const cartId = line.cart_id;
    // A stale ETag: refused, nothing stored.
    const stale = expectEnvelope(await put(cartId, line.id, { version_number: 2 }, '"7"'), 409);
    expect(stale.errors).toEqual([expect.objectContaining({ code: 'stale_line' })]);
    const body = { version_number: 2, questions: answers({ size: 'l', top: 'pine', legs: 5 }) };
    const moved = expectEnvelope(await put(cartId, line.id, body, '"1"'), 200).data as Line;
    // Pine is gone; a large desk's cheapest top is oak.
    expect(moved.resolution.changes).toEqual([PINE_TO_OAK]);
    expect(moved.version_number).toBe(2);
    expect((await cart(cartId)).lines[0]).toMatchObject({
      version_number: 2,
      total: '200.00',
      answers: answers({ size: 'l', top: 'oak', legs: 5 }),
    });
    // The revision the move made is the one a next If-Match names.
    expectEnvelope(await put(cartId, line.id, { version_number: 2 }, '"1"'), 409);
    expectEnvelope(await put(cartId, line.id, { version_number: 2 }, '"2"'), 200);
  });

  it('refuses a malformed or unknown version_number, and a PUT with neither answers nor version', async () => {
    const cartId = await newCart();
    const line = await add(answers({ size: 's', top: 'oak' }), cartId);
    for (const version_number of [0, -1, 1.5, 'newest', '2', null]) {
      const res = expectEnvelope(await put(cartId, line.id, { version_number }), 400);
      expect((res.errors as Array<{ path: string }>).map((p) => p.path)).toContain(
        'version_number',
      );
    }
    expectEnvelope(await put(cartId, line.id, {}), 400);
    expectEnvelope(await put(cartId, line.id, { version_number: 99 }), 404);
    expect((await cart(cartId)).lines[0]).toMatchObject({ version_number: 2, etag: '"1"' });
  });

  it('recheck apply moves the line by the same resolution', async () => {
    const line = onV1.rechecked;
    const cartId = line.cart_id;
    const checked = expectEnvelope(await recheck(cartId, line.id), 200).data as Line;
    expect(checked).toMatchObject({
      valid: false,
      movable: true,
      changes: [PINE_TO_OAK],
      price_before: { total: '120.00', currency: 'EUR' },
      price_after: { total: '160.00', currency: 'EUR' },
      applied: false,
    });
    const applied = expectEnvelope(await recheck(cartId, line.id, { apply: true }), 200)
      .data as Line;
    expect(applied).toMatchObject({ applied: true, etag: '"2"', changes: [PINE_TO_OAK] });
    expect((await cart(cartId)).lines[0]).toMatchObject({
      version_number: 2,
      total: '160.00',
      answers: answers({ size: 's', top: 'oak', legs: 3 }),
    });
  });

  it('refuses to move a line to a version in another currency than the cart’s other lines', async () => {
    const cartId = await newCart();
    const first = await add(answers({ size: 's', top: 'oak' }), cartId);
    const second = await add(answers({ size: 'l', top: 'glass' }), cartId);
    const alone = await newCart();
    const only = await add(answers({ size: 's', top: 'oak' }), alone);
    await newVersion(inCurrency(deskV2(desk), 'USD'));
    const checked = expectEnvelope(await recheck(cartId, first.id), 200).data as Line;
    expect(checked).toMatchObject({ valid: true, movable: false });
    expect(checked.errors).toContainEqual(expect.objectContaining({ code: 'currency_mismatch' }));
    const refused = expectEnvelope(await recheck(cartId, first.id, { apply: true }), 409);
    expect(refused.errors).toContainEqual(expect.objectContaining({ code: 'currency_mismatch' }));
    const cartApply = expectEnvelope(
      await ctx.http.post(`/v1/carts/${cartId}/recheck`).set(bearer(token)).send({ apply: true }),
      200,
    ).data as Line;
    expect(cartApply.lines.map((l: Line) => l.applied)).toEqual([false, false]);
    const put401 = expectEnvelope(await put(cartId, second.id, { version_number: 'latest' }), 401);
    expect(put401.errors).toContainEqual(expect.objectContaining({ code: 'currency_mismatch' }));
    const after = await cart(cartId);
    expect(after.totals).toEqual([{ currency: 'EUR', total: '390.00' }]);
    // Alone in its cart, a line may change currency.
    expectEnvelope(await put(alone, only.id, { version_number: 'latest' }), 200);
    expect((await cart(alone)).totals).toEqual([{ currency: 'USD', total: '160.00' }]);
  });
});
