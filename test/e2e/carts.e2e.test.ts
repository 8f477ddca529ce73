import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countCarts,
  createCart,
  createCartWorld,
  insertLine,
  newCompany,
} from '../support/cart.factories.js';
import {
  bearer,
  createUser,
  errorPaths,
  expectEnvelope,
  postRawJson,
  type TestUser,
} from '../support/factories.js';
import { addCompanyMember, createIntent } from '../support/org.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('carts', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let modelId: number;
  let companyA: number;

  const newUser = () => createUser(ctx, admin);
  const defaultsOf = (userId: number) => countCarts(ctx, userId, { isDefault: true });
  const cartsOf = (userId: number) => countCarts(ctx, userId);

  beforeAll(async () => {
    ctx = await createTestApp();
    ({ admin, alice, bob, modelId, companyA } = await createCartWorld(ctx));
  });
  afterAll(() => ctx?.close());

  describe('POST /v1/carts/new', () => {
    it('creates a cart; the first becomes the default, later ones do not (201)', async () => {
      const user = await newUser();
      const first = expectEnvelope(
        await ctx.http.post('/v1/carts/new').set(bearer(user.token)).send({ reference: 'One' }),
        201,
      );
      expect(first.message).toBe('Cart created');
      expect(first.data).toEqual({
        cart_id: expect.stringMatching(UUID),
        reference: 'One',
        default: true,
        company_id: null,
        created_at: expect.stringMatching(ISO),
        // A new cart: no lines yet.
        line_count: 0,
        currency: null,
        total: '0',
      });
      const second = await createCart(ctx, user.token, { reference: 'Two', default: false });
      expect(second.default).toBe(false);
      expect(await defaultsOf(user.id)).toBe(1);
    });

    it('makes the first cart the default even when it says default: false', async () => {
      const user = await newUser();
      expect((await createCart(ctx, user.token, { default: false })).default).toBe(true);
    });

    it('moves the default to a new cart with default: true', async () => {
      const user = await newUser();
      const old = await createCart(ctx, user.token);
      const moved = await createCart(ctx, user.token, { default: true });
      expect(moved.default).toBe(true);
      const list = expectEnvelope(await ctx.http.get('/v1/carts').set(bearer(user.token)), 200);
      const flags = Object.fromEntries(
        (list.data as { cart_id: string; default: boolean }[]).map((c) => [c.cart_id, c.default]),
      );
      expect(flags).toEqual({ [old.cart_id]: false, [moved.cart_id]: true });
      const current = await ctx.http.get('/v1/carts/default').set(bearer(user.token));
      expect(expectEnvelope(current, 200).data).toEqual(moved);
    });

    it('answers 401 for an invalid body, naming every problem', async () => {
      const send = (body: unknown) =>
        ctx.http
          .post('/v1/carts/new')
          .set(bearer(alice.token))
          .send(body as object);
      const res = await send({ default: 'yes', extra: 1 });
      expect(errorPaths(expectEnvelope(res, 401))).toEqual(
        expect.arrayContaining(['reference', 'default', 'extra']),
      );
      for (const reference of ['', '   ', 'x'.repeat(201), 42]) {
        expectEnvelope(await send({ reference }), 401);
      }
      expectEnvelope(await postRawJson(ctx, '/v1/carts/new', alice.token, '{"reference":'), 401);
      expect(await cartsOf(alice.id)).toBe(0);
    });

    it('answers 403 without a usable credential, even for an invalid body', async () => {
      expectEnvelope(await ctx.http.post('/v1/carts/new').send({ reference: 'x' }), 403);
      expectEnvelope(await ctx.http.post('/v1/carts/new').send({}), 403);
      const garbage = await ctx.http
        .post('/v1/carts/new')
        .set(bearer('not-a-token'))
        .send({ reference: 'x' });
      expectEnvelope(garbage, 403);
      const refresh = await ctx.http
        .post('/v1/carts/new')
        .set(bearer(alice.refreshToken))
        .send({ reference: 'x' });
      expectEnvelope(refresh, 403);
    });
  });

  describe('GET /v1/carts and /v1/carts/default', () => {
    it('answers 400 when the caller has no cart, and no default cart', async () => {
      const user = await newUser();
      const list = expectEnvelope(await ctx.http.get('/v1/carts').set(bearer(user.token)), 400);
      expect(list.message).toBe('Carts not found');
      const one = await ctx.http.get('/v1/carts/default').set(bearer(user.token));
      expect(expectEnvelope(one, 400).message).toBe('Cart was not found');
    });

    it('answers 403 without a credential', async () => {
      expectEnvelope(await ctx.http.get('/v1/carts'), 403);
      expectEnvelope(await ctx.http.get('/v1/carts/default'), 403);
      expectEnvelope(await ctx.http.get('/v1/carts').set(bearer('nope')), 403);
    });

    it("lists only the caller's carts, paginated with links", async () => {
      const user = await newUser();
      const made = [];
      for (const reference of ['a', 'b', 'c'])
        made.push(await createCart(ctx, user.token, { reference }));
      await createCart(ctx, bob.token);

      const first = await ctx.http.get('/v1/carts?per_page=2').set(bearer(user.token));
      const page1 = expectEnvelope(first, 200);
      expect(page1.message).toBe('Carts found');
      expect(page1.data).toEqual(made.slice(0, 2));
      expect(page1.links).toEqual({
        self: '/v1/carts?per_page=2&page=1',
        first: '/v1/carts?per_page=2&page=1',
        last: '/v1/carts?per_page=2&page=2',
        next: '/v1/carts?per_page=2&page=2',
      });
      const second = await ctx.http.get('/v1/carts?page=2&per_page=2').set(bearer(user.token));
      const page2 = expectEnvelope(second, 200);
      expect(page2.data).toEqual(made.slice(2));
      expect(page2.links).toEqual(expect.objectContaining({ prev: '/v1/carts?page=1&per_page=2' }));
      expect(page2.links).not.toHaveProperty('next');
      expectEnvelope(await ctx.http.get('/v1/carts?per_page=500').set(bearer(user.token)), 400);
    });

    it("answers the caller's default cart", async () => {
      const user = await newUser();
      const cart = await createCart(ctx, user.token);
      await createCart(ctx, user.token);
      const res = await ctx.http.get('/v1/carts/default').set(bearer(user.token));
      const body = expectEnvelope(res, 200);
      expect(body.message).toBe('Cart found');
      expect(body.data).toEqual(cart);
    });
  });

  describe('GET /v1/carts/{cart_id} and DELETE .../lines/{line_id}', () => {
    it('answers an empty cart with a zero total', async () => {
      const cart = await createCart(ctx, alice.token);
      const res = await ctx.http.get(`/v1/carts/${cart.cart_id}`).set(bearer(alice.token));
      expect(expectEnvelope(res, 200).data).toEqual({
        ...cart,
        currency: null,
        total: '0',
        totals: [],
        lines: [],
      });
    });

    it('answers the lines and their exact total, and removes a line', async () => {
      const cart = await createCart(ctx, alice.token);
      const big = await insertLine(ctx, { ...ids(cart), total: '12345678901234567890.15' });
      const small = await insertLine(ctx, { ...ids(cart), total: '0.85' });
      const res = await ctx.http.get(`/v1/carts/${cart.cart_id}`).set(bearer(alice.token));
      const data = expectEnvelope(res, 200).data as Record<string, unknown>;
      expect(data).toMatchObject({ currency: 'EUR', total: '12345678901234567891.00' });
      expect(data.totals).toEqual([{ currency: 'EUR', total: '12345678901234567891.00' }]);
      expect(data.lines).toEqual([
        expect.objectContaining({
          id: big.id,
          model_id: modelId,
          version_number: 1,
          company_id: companyA,
          language_code: 'en',
          total: '12345678901234567890.15',
          currency: 'EUR',
          answers: { width: { values: [1200] } },
          created_at: expect.stringMatching(ISO),
          general: expect.objectContaining({ name: 'Window', model_id: modelId, currency: 'EUR' }),
          pricing: expect.objectContaining({ currency: 'EUR', total: '12345678901234567890.15' }),
        }),
        expect.objectContaining({ id: small.id, total: '0.85' }),
      ]);

      const path = `/v1/carts/${cart.cart_id}/lines/${big.id}`;
      const removed = expectEnvelope(await ctx.http.delete(path).set(bearer(alice.token)), 200);
      expect(removed.message).toBe('Cart line removed');
      expect(removed.data).toMatchObject({ total: '0.85', lines: [{ id: small.id }] });
      expectEnvelope(await ctx.http.delete(path).set(bearer(alice.token)), 404);
    });

    it('sums per currency when a cart holds several', async () => {
      const cart = await createCart(ctx, alice.token);
      await insertLine(ctx, { ...ids(cart), total: '0.10' });
      await insertLine(ctx, { ...ids(cart), total: '0.20' });
      await insertLine(ctx, { ...ids(cart), total: '5', currency: 'USD' });
      const res = await ctx.http.get(`/v1/carts/${cart.cart_id}`).set(bearer(alice.token));
      expect(expectEnvelope(res, 200).data).toMatchObject({
        currency: null,
        total: null,
        totals: [
          { currency: 'EUR', total: '0.30' },
          { currency: 'USD', total: '5' },
        ],
      });
    });

    it("answers 404 for another user's cart or line, a bad id, and 401 without a credential", async () => {
      const cart = await createCart(ctx, alice.token);
      const line = await insertLine(ctx, { ...ids(cart), total: '1.00' });
      const other = await createCart(ctx, alice.token);
      for (const user of [bob, admin]) {
        expectEnvelope(
          await ctx.http.get(`/v1/carts/${cart.cart_id}`).set(bearer(user.token)),
          404,
        );
        const del = ctx.http.delete(`/v1/carts/${cart.cart_id}/lines/${line.id}`);
        expectEnvelope(await del.set(bearer(user.token)), 404);
      }
      const wrongCart = `/v1/carts/${other.cart_id}/lines/${line.id}`;
      expectEnvelope(await ctx.http.delete(wrongCart).set(bearer(alice.token)), 404);
      for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
        expectEnvelope(await ctx.http.get(`/v1/carts/${id}`).set(bearer(alice.token)), 404);
      }
      const badLine = `/v1/carts/${cart.cart_id}/lines/abc`;
      expectEnvelope(await ctx.http.delete(badLine).set(bearer(alice.token)), 404);
      expectEnvelope(await ctx.http.get(`/v1/carts/${cart.cart_id}`), 401);
      expectEnvelope(await ctx.http.delete(`/v1/carts/${cart.cart_id}/lines/${line.id}`), 401);
      const still = await ctx.http.get(`/v1/carts/${cart.cart_id}`).set(bearer(alice.token));
      expect(expectEnvelope(still, 200).data).toMatchObject({ lines: [{ id: line.id }] });
    });
  });

  describe('intent tokens', () => {
    it('record their company and see only the carts of that company', async () => {
      const user = await newUser();
      const [companyX, companyY] = [await newCompany(ctx, user), await newCompany(ctx, user)];
      const [intentX, intentY] = [
        await createIntent(ctx, user, companyX),
        await createIntent(ctx, user, companyY),
      ];
      const own = await createCart(ctx, user.token);
      expect(own).toMatchObject({ default: true, company_id: null });

      const viaX = await createCart(ctx, intentX);
      expect(viaX).toMatchObject({ default: false, company_id: companyX });
      const listX = expectEnvelope(await ctx.http.get('/v1/carts').set(bearer(intentX)), 200);
      expect(listX.data).toEqual([viaX]);
      expectEnvelope(await ctx.http.get('/v1/carts').set(bearer(intentY)), 400);
      expectEnvelope(await ctx.http.get(`/v1/carts/${viaX.cart_id}`).set(bearer(intentY)), 404);
      expectEnvelope(await ctx.http.get(`/v1/carts/${own.cart_id}`).set(bearer(intentX)), 404);
      const all = expectEnvelope(await ctx.http.get('/v1/carts').set(bearer(user.token)), 200);
      expect(all.data).toEqual([own, viaX]);

      // The user's default is not a company-X cart: the token has no default until it moves it.
      expectEnvelope(await ctx.http.get('/v1/carts/default').set(bearer(intentX)), 400);
      const moved = await createCart(ctx, intentX, { default: true });
      const seen = await ctx.http.get('/v1/carts/default').set(bearer(intentX));
      expect(expectEnvelope(seen, 200).data).toEqual(moved);
      const jwtDefault = await ctx.http.get('/v1/carts/default').set(bearer(user.token));
      expect(expectEnvelope(jwtDefault, 200).data).toEqual(moved);
      expect(await defaultsOf(user.id)).toBe(1);
      await addCompanyMember(ctx, admin, companyX, bob.id);
      const bobIntent = await createIntent(ctx, bob, companyX);
      expectEnvelope(await ctx.http.get(`/v1/carts/${viaX.cart_id}`).set(bearer(bobIntent)), 404);
    });
  });

  it('documents every cart route in the OpenAPI document', async () => {
    const res = await ctx.http.get('/docs-json');
    expect(res.status).toBe(200);
    const paths = res.body.paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths['/v1/carts/new'])).toContain('post');
    expect(Object.keys(paths['/v1/carts'])).toContain('get');
    expect(Object.keys(paths['/v1/carts/default'])).toContain('get');
    expect(Object.keys(paths['/v1/carts/{cart_id}'])).toContain('get');
    expect(Object.keys(paths['/v1/carts/{cart_id}/lines/{line_id}'])).toContain('delete');
  });

  function ids(cart: { cart_id: string }) {
    return { cartId: cart.cart_id, modelId, companyId: companyA };
  }
});
