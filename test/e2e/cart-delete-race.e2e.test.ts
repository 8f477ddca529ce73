import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectEnvelope } from '../support/factories.js';
import {
  createModelWorld,
  uploadMinimalModel,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/** A cart deleted while lines are being added to it: each add is 201 or 404, never 500. */
describe('deleting a cart while lines are added', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let model: TestModel;

  beforeAll(async () => {
    ctx = await createTestApp({ CLIENT_IN_FLIGHT_LIMIT: '100', SERVER_IN_FLIGHT_LIMIT: '200' });
    world = await createModelWorld(ctx);
    model = await uploadMinimalModel(ctx, world);
  });
  afterAll(() => ctx?.close());

  it('concurrent adds and one delete: 201 or 404 for each add, and no line outlives its cart', async () => {
    const token = world.companyMember.token;
    const statuses = new Map<number, number>();
    for (let round = 0; round < 4; round++) {
      const cart = await ctx.http
        .post('/v1/carts/new')
        .set(bearer(token))
        .send({ reference: 'race' });
      expectEnvelope(cart, 201);
      const cartId = cart.body.data.cart_id as string;
      const add = () =>
        ctx.http
          .post('/v1/carts')
          .set(bearer(token))
          .send({
            cart_id: cartId,
            model_id: model.id,
            company_id: world.company.id,
            questions: { size: { values: ['l'] } },
          });
      const adds = Array.from({ length: 20 }, add);
      const removal = new Promise((resolve) => setTimeout(resolve, 5 * round)).then(() =>
        ctx.http.delete(`/v1/carts/${cartId}`).set(bearer(token)),
      );
      const [removed, ...added] = await Promise.all([removal, ...adds]);
      expect(removed.status).toBe(200);
      for (const res of added) {
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        expect([201, 404, 409], JSON.stringify(res.body)).toContain(res.status);
      }
      // What was acknowledged went with the cart; nothing is left behind.
      expectEnvelope(await ctx.http.get(`/v1/carts/${cartId}`).set(bearer(token)), 404);
    }
    expect([...statuses.keys()].every((status) => status < 500)).toBe(true);
  });
});
