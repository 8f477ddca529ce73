import { DataSource } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectEnvelope } from '../support/factories.js';
import { createCart } from '../support/cart.factories.js';
import {
  createModelWorld,
  minimalModel,
  uploadModel,
  windowYaml,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/** docs/security.md, "Carts": bounded, paged, stored compactly. */
describe('bounded, paged, compact carts', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let model: TestModel;
  let windowModel: TestModel;

  beforeAll(async () => {
    // 20 parallel adds of one token: admission (16 in flight by default) must let them in.
    ctx = await createTestApp({ CART_MAX_LINES: '5', CLIENT_IN_FLIGHT_LIMIT: '100' });
    world = await createModelWorld(ctx);
    model = await uploadModel(
      ctx,
      world.supplier.id,
      world.supplierMember.token,
      minimalModel('cart-cap'),
    );
    windowModel = await uploadModel(
      ctx,
      world.supplier.id,
      world.supplierMember.token,
      windowYaml(),
    );
  });
  afterAll(() => ctx?.close());

  const token = () => world.companyMember.token;
  const addLine = (cartId: string, size: 's' | 'l') =>
    ctx.http
      .post('/v1/carts')
      .set(bearer(token()))
      .send({
        cart_id: cartId,
        model_id: model.id,
        company_id: world.company.id,
        questions: { size: { values: [size] } },
      });
  const lineCount = async (cartId: string) => {
    const [row] = (await ctx.app
      .get(DataSource)
      .query(
        ctx.database.url
          ? 'SELECT COUNT(*) AS n FROM cart_lines WHERE cart_id = $1'
          : 'SELECT COUNT(*) AS n FROM cart_lines WHERE cart_id = ?',
        [cartId],
      )) as { n: number | string }[];
    return Number(row.n);
  };

  it('holds at most CART_MAX_LINES lines, also under 20 parallel adds (409 past it)', async () => {
    const cart = await createCart(ctx, token());
    const answers = await Promise.all(Array.from({ length: 20 }, () => addLine(cart.cart_id, 's')));
    const statuses = answers.map((res) => res.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(5);
    expect(statuses.filter((status) => status === 409)).toHaveLength(15);
    const full = answers.find((res) => res.status === 409)!;
    expect(expectEnvelope(full, 409).errors).toEqual([
      expect.objectContaining({ code: 'cart_full' }),
    ]);
    expect(await lineCount(cart.cart_id)).toBe(5);
    expectEnvelope(await addLine(cart.cart_id, 'l'), 409);
    expect(await lineCount(cart.cart_id)).toBe(5);
  });

  it('pages the lines of GET /v1/carts/{id} and totals all of them', async () => {
    const cart = await createCart(ctx, token());
    for (const size of ['s', 'l', 's', 'l', 'l'] as const)
      expectEnvelope(await addLine(cart.cart_id, size), 201);
    const page = async (query: string) =>
      expectEnvelope(
        await ctx.http.get(`/v1/carts/${cart.cart_id}${query}`).set(bearer(token())),
        200,
      );
    const first = await page('?page=1&per_page=2');
    const data = first.data as { lines: { id: number }[]; total: string; currency: string };
    expect(data.lines).toHaveLength(2);
    // 2 × 100.00 + 3 × 110.00, whatever the page.
    expect(data.total).toBe('530.00');
    expect(first.links).toEqual(
      expect.objectContaining({
        self: expect.stringContaining('page=1'),
        next: expect.stringContaining('page=2'),
        last: expect.stringContaining('page=3'),
      }),
    );
    const last = (await page('?page=3&per_page=2')).data as typeof data;
    expect(last.lines).toHaveLength(1);
    expect(last.total).toBe('530.00');
    const all = (await page('')).data as typeof data;
    expect(all.lines.map((line) => line.id)).toEqual([
      ...data.lines.map((line) => line.id),
      ...((await page('?page=2&per_page=2')).data as typeof data).lines.map((line) => line.id),
      ...last.lines.map((line) => line.id),
    ]);
    expectEnvelope(
      await ctx.http.get(`/v1/carts/${cart.cart_id}?per_page=51`).set(bearer(token())),
      400,
    );
  });

  it('stores the line compactly and rebuilds exactly the line that was answered', async () => {
    const cart = await createCart(ctx, token());
    const added = await ctx.http
      .post('/v1/carts')
      .set(bearer(token()))
      .send({
        cart_id: cart.cart_id,
        model_id: windowModel.id,
        company_id: world.company.id,
        language_code: 'nl',
        questions: {
          width: { values: [1200] },
          height: { values: [1000] },
          color: { values: ['white'] },
        },
      });
    const answered = expectEnvelope(added, 201).data as Record<string, unknown>;
    const [stored] = (await ctx.app
      .get(DataSource)
      .query(
        ctx.database.url
          ? 'SELECT line FROM cart_lines WHERE id = $1'
          : 'SELECT line FROM cart_lines WHERE id = ?',
        [answered.id],
      )) as { line: string }[];
    expect(stored.line).toBe('{}');
    const got = expectEnvelope(
      await ctx.http.get(`/v1/carts/${cart.cart_id}`).set(bearer(token())),
      200,
    );
    const [line] = (got.data as { lines: Record<string, unknown>[] }).lines;
    for (const section of ['general', 'questions', 'pricing', 'bom', 'version_number']) {
      expect(line[section], section).toEqual(answered[section]);
    }
    expect(line.total).toBe((answered.pricing as { total: string }).total);
  });
});
