import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newCompany } from '../support/cart.factories.js';
import { bearer, createUser, expectEnvelope, unique } from '../support/factories.js';
import {
  createModelWorld,
  minimalModel,
  sendModel,
  uploadMinimalModel,
  type ModelWorld,
} from '../support/model.factories.js';
import { addSupplierMember, createIntent } from '../support/org.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/** docs/api.md "Retrying safely": a replay passes the route's access checks, as a fresh request would. */
describe('Idempotency-Key replays check access again', () => {
  let ctx: TestContext;
  let world: ModelWorld;

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
  });
  afterAll(() => ctx?.close());

  const removeSupplierMember = async (userId: number) => {
    const res = await ctx.http
      .delete(`/v1/suppliers/${world.supplier.id}/members/${userId}`)
      .set(bearer(world.admin.token));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  it('POST /v1/carts/new: an intent of another company, or after the cart is deleted, is 404', async () => {
    const member = world.companyMember;
    const otherCompany = await newCompany(ctx, member);
    const intent = await createIntent(ctx, member, world.company.id);
    const otherIntent = await createIntent(ctx, member, otherCompany);
    const key = unique('key');
    const send = (token: string) =>
      ctx.http
        .post('/v1/carts/new')
        .set(bearer(token))
        .set('Idempotency-Key', key)
        .send({ reference: 'web' });
    const first = await send(intent);
    expectEnvelope(first, 201);
    const replay = await send(intent);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);

    // The same user, through an intent that may not see that cart: not the stored answer.
    const elsewhere = await send(otherIntent);
    expectEnvelope(elsewhere, 404);
    expect(elsewhere.headers['idempotent-replayed']).toBeUndefined();

    const cartId = first.body.data.cart_id as string;
    expect((await ctx.http.delete(`/v1/carts/${cartId}`).set(bearer(intent))).status).toBe(200);
    const gone = await send(intent);
    expectEnvelope(gone, 404);
    expect(JSON.stringify(gone.body)).not.toContain(cartId);
  });

  it('model uploads and PUT /v1/models/{id}: a member since removed gets the access error', async () => {
    const member = await createUser(ctx, world.admin);
    await addSupplierMember(ctx, world.admin, world.supplier.id, member.id);
    const body = minimalModel(unique('R'));
    const uploadKey = unique('key');
    const url = `/v1/suppliers/${world.supplier.id}/models`;
    const upload = () =>
      sendModel(ctx, 'post', url, member.token, body, { 'Idempotency-Key': uploadKey });
    const created = await upload();
    expectEnvelope(created, 201);
    expect((await upload()).headers['idempotent-replayed']).toBe('true');

    const modelId = created.body.data.id as number;
    const putKey = unique('key');
    const put = () =>
      sendModel(ctx, 'put', `/v1/models/${modelId}`, member.token, body, {
        'Idempotency-Key': putKey,
      });
    const v2 = await put();
    expectEnvelope(v2, 200);
    const again = await put();
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers.etag).toBe('"2"');

    await removeSupplierMember(member.id);
    for (const retry of [await upload(), await put()]) {
      expect([401, 403, 404]).toContain(retry.status);
      expect(retry.headers['idempotent-replayed']).toBeUndefined();
      expect(retry.body.data ?? null).toBeNull();
    }
  });

  it('POST /v1/carts: a replay to a caller who may no longer configure the model is refused', async () => {
    const model = await uploadMinimalModel(ctx, world);
    const key = unique('key');
    const add = (token: string) =>
      ctx.http
        .post('/v1/carts')
        .set(bearer(token))
        .set('Idempotency-Key', key)
        .send({
          model_id: model.id,
          company_id: world.company.id,
          questions: { size: { values: ['s'] } },
        });
    const member = world.companyMember;
    const first = await add(member.token);
    expectEnvelope(first, 201);
    const lineId = first.body.data.id as number;
    const cartId = first.body.data.cart_id as string;
    const removed = await ctx.http
      .delete(`/v1/carts/${cartId}/lines/${lineId}`)
      .set(bearer(member.token));
    expect(removed.status).toBe(200);
    const retry = await add(member.token);
    expectEnvelope(retry, 404);
    expect(retry.headers['idempotent-replayed']).toBeUndefined();
  });
});
