import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectEnvelope, type TestUser } from '../support/factories.js';
import { createCart } from '../support/cart.factories.js';
import {
  createCompanyMember,
  createModelWorld,
  uploadModel,
  windowYaml,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { addCompanyMember, createCompany, createIntent } from '../support/org.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

const ANSWERS = {
  width: { values: [1200] },
  height: { values: [1000] },
  color: { values: ['white'] },
};

describe('carts: PATCH and DELETE /v1/carts/{cart_id}, and the company of a cart', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let other: ModelWorld;
  let window: TestModel;
  /** A second company of the world's buyer, buying from the same supplier. */
  let secondCompany: number;

  const http = () => ctx.http;
  const addLine = (token: string, companyId: number, cartId?: string) =>
    http()
      .post('/v1/carts')
      .set(bearer(token))
      .send({
        model_id: window.id,
        company_id: companyId,
        questions: ANSWERS,
        ...(cartId ? { cart_id: cartId } : {}),
      });
  const patch = (token: string, cartId: string, body: Record<string, unknown>) =>
    http().patch(`/v1/carts/${cartId}`).set(bearer(token)).send(body);
  const remove = (token: string, cartId: string) =>
    http().delete(`/v1/carts/${cartId}`).set(bearer(token));
  const getDefault = (token: string) => http().get('/v1/carts/default').set(bearer(token));

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    other = await createModelWorld(ctx);
    window = await uploadModel(ctx, world.supplier.id, world.supplierMember.token, windowYaml());
    secondCompany = (await createCompany(ctx, world.companyMember)).id;
    const link = await http()
      .post(`/v1/companies/${secondCompany}/suppliers`)
      .set(bearer(world.admin.token))
      .send({ supplier_id: world.supplier.id });
    expectEnvelope(link, 201);
  });
  afterAll(() => ctx?.close());

  /** A fresh buyer of both companies (carts are per user). */
  async function freshBuyer(): Promise<TestUser> {
    const buyer = await createCompanyMember(ctx, world);
    await addCompanyMember(ctx, world.admin, secondCompany, buyer.id);
    return buyer;
  }

  it("a cart's company_id is what its lines say: null while empty, on /default, the list and the cart", async () => {
    const buyer = await freshBuyer();
    const added = expectEnvelope(await addLine(buyer.token, world.company.id), 201);
    const cartId = (added.data as { cart_id: string }).cart_id;
    const lineId = (added.data as { id: number }).id;

    const byDefault = expectEnvelope(await getDefault(buyer.token), 200).data as Record<
      string,
      unknown
    >;
    expect(byDefault).toMatchObject({
      cart_id: cartId,
      company_id: world.company.id,
      line_count: 1,
      currency: 'EUR',
      total: '253.44',
    });
    const list = expectEnvelope(await http().get('/v1/carts').set(bearer(buyer.token)), 200);
    expect((list.data as Array<Record<string, unknown>>)[0]).toMatchObject({
      company_id: world.company.id,
      line_count: 1,
      total: '253.44',
    });
    const detail = expectEnvelope(
      await http().get(`/v1/carts/${cartId}`).set(bearer(buyer.token)),
      200,
    );
    expect((detail.data as { company_id: number }).company_id).toBe(world.company.id);

    // A cart holds one company's lines: another company of the same buyer is refused.
    const mixed = expectEnvelope(await addLine(buyer.token, secondCompany, cartId), 403);
    expect((mixed.errors as Array<{ code: string }>).map((p) => p.code)).toEqual([
      'cart_company_mismatch',
    ]);

    // Its last line removed, the cart is free again.
    expectEnvelope(
      await http().delete(`/v1/carts/${cartId}/lines/${lineId}`).set(bearer(buyer.token)),
      200,
    );
    expect(
      (expectEnvelope(await getDefault(buyer.token), 200).data as { company_id: null }).company_id,
    ).toBeNull();
    expectEnvelope(await addLine(buyer.token, secondCompany, cartId), 201);
    expect(
      (expectEnvelope(await getDefault(buyer.token), 200).data as { company_id: number })
        .company_id,
    ).toBe(secondCompany);

    // A cart made with an intent token has its company from the start.
    const intent = await createIntent(ctx, buyer, world.company.id);
    const intentCart = await createCart(ctx, intent);
    expect(intentCart.company_id).toBe(world.company.id);
  });

  it('renames a cart and moves the default with PATCH', async () => {
    const buyer = await freshBuyer();
    const first = await createCart(ctx, buyer.token, { reference: 'first' });
    const second = await createCart(ctx, buyer.token, { reference: 'second' });
    expect([first.default, second.default]).toEqual([true, false]);

    const renamed = expectEnvelope(
      await patch(buyer.token, second.cart_id, { reference: 'Renamed' }),
      200,
    );
    expect(renamed.data).toMatchObject({
      cart_id: second.cart_id,
      reference: 'Renamed',
      default: false,
    });
    const moved = expectEnvelope(await patch(buyer.token, second.cart_id, { default: true }), 200);
    expect(moved.data).toMatchObject({ default: true });
    expect(
      (expectEnvelope(await getDefault(buyer.token), 200).data as { cart_id: string }).cart_id,
    ).toBe(second.cart_id);
    // Only one default: the first one is not any more.
    const carts = expectEnvelope(await http().get('/v1/carts').set(bearer(buyer.token)), 200)
      .data as Array<{ cart_id: string; default: boolean }>;
    expect(carts.filter((c) => c.default).map((c) => c.cart_id)).toEqual([second.cart_id]);

    // default: false on the default cart: no default until one is chosen.
    expectEnvelope(await patch(buyer.token, second.cart_id, { default: false }), 200);
    expectEnvelope(await getDefault(buyer.token), 400);
    expectEnvelope(await patch(buyer.token, first.cart_id, { default: true }), 200);
    expect(
      (expectEnvelope(await getDefault(buyer.token), 200).data as { cart_id: string }).cart_id,
    ).toBe(first.cart_id);

    // Bad bodies.
    expectEnvelope(await patch(buyer.token, first.cart_id, { reference: '  ' }), 400);
    expectEnvelope(await patch(buyer.token, first.cart_id, { default: 'yes' }), 400);
    expectEnvelope(await patch(buyer.token, first.cart_id, { owner: 1 }), 400);
  });

  it('deletes a cart with its lines; after the default one the next POST /v1/carts makes a new default', async () => {
    const buyer = await freshBuyer();
    const added = expectEnvelope(await addLine(buyer.token, world.company.id), 201);
    const cartId = (added.data as { cart_id: string }).cart_id;
    const spare = await createCart(ctx, buyer.token, { reference: 'spare' });

    const deleted = expectEnvelope(await remove(buyer.token, cartId), 200);
    expect(deleted.data).toMatchObject({
      cart_id: cartId,
      default: true,
      company_id: world.company.id,
    });
    expectEnvelope(await http().get(`/v1/carts/${cartId}`).set(bearer(buyer.token)), 404);
    expectEnvelope(await remove(buyer.token, cartId), 404);
    // No default now; the spare cart did not become one.
    expectEnvelope(await getDefault(buyer.token), 400);
    const carts = expectEnvelope(await http().get('/v1/carts').set(bearer(buyer.token)), 200).data;
    expect(carts).toEqual([expect.objectContaining({ cart_id: spare.cart_id, default: false })]);
    // POST /v1/carts creates the default cart as on first use.
    const again = expectEnvelope(await addLine(buyer.token, world.company.id), 201);
    const newDefault = (again.data as { cart_id: string }).cart_id;
    expect(newDefault).not.toBe(spare.cart_id);
    expect(expectEnvelope(await getDefault(buyer.token), 200).data).toMatchObject({
      cart_id: newDefault,
      reference: 'default',
    });
  });

  it("keeps carts to their user, in both directions, and intent tokens to their company's carts", async () => {
    const buyer = await freshBuyer();
    const mine = await createCart(ctx, buyer.token);
    const theirs = await createCart(ctx, other.companyMember.token);
    for (const [token, cartId] of [
      [other.companyMember.token, mine.cart_id],
      [buyer.token, theirs.cart_id],
      [world.admin.token, mine.cart_id],
    ]) {
      expectEnvelope(await patch(token, cartId, { reference: 'taken' }), 404);
      expectEnvelope(await remove(token, cartId), 404);
    }
    // An intent token of one company sees only the carts recorded with it.
    const intentA = await createIntent(ctx, buyer, world.company.id);
    const intentB = await createIntent(ctx, buyer, secondCompany);
    const cartA = await createCart(ctx, intentA);
    expectEnvelope(await patch(intentB, cartA.cart_id, { reference: 'x' }), 404);
    expectEnvelope(await remove(intentB, cartA.cart_id), 404);
    expectEnvelope(await patch(intentA, mine.cart_id, { reference: 'x' }), 404);
    expect(
      expectEnvelope(await patch(intentA, cartA.cart_id, { reference: 'Shop cart' }), 200).data,
    ).toMatchObject({ reference: 'Shop cart', company_id: world.company.id });
    expectEnvelope(await remove(intentA, cartA.cart_id), 200);
    // Untouched by the refusals.
    const still = expectEnvelope(
      await http().get(`/v1/carts/${theirs.cart_id}`).set(bearer(other.companyMember.token)),
      200,
    );
    expect((still.data as { reference: string }).reference).toBe(theirs.reference);
    expectEnvelope(await patch(buyer.token, 'not-a-uuid', { reference: 'x' }), 404);
  });
});
