import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DefaultCarts } from '../../src/carts/default-carts.service.js';
import {
  countCarts,
  createCart,
  createCartWorld,
  insertLine,
  newCompany,
  principalOf,
  refusalStatus,
} from '../support/cart.factories.js';
import { bearer, createUser, expectEnvelope, type TestUser } from '../support/factories.js';
import { createIntent } from '../support/org.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/** Where a line lands (DefaultCarts) and the one-default rule when requests collide. */
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
    // 20 parallel requests of one token: admission (16 in flight by default) must let them in.
    ctx = await createTestApp({ CLIENT_IN_FLIGHT_LIMIT: '100' });
    ({ admin, alice, bob, modelId, companyA } = await createCartWorld(ctx));
  });
  afterAll(() => ctx?.close());

  describe('DefaultCarts (for the line endpoints)', () => {
    it('resolves the named cart, else the default, creating "default" when missing', async () => {
      const service = ctx.app.get(DefaultCarts);
      const user = await newUser();
      const created = await service.resolveTargetCart(principalOf(user));
      expect(created).toMatchObject({ reference: 'default', isDefault: true, companyId: null });
      expect((await service.resolveTargetCart(principalOf(user))).id).toBe(created.id);
      const named = await createCart(ctx, user.token);
      expect((await service.resolveTargetCart(principalOf(user), named.cart_id)).id).toBe(
        named.cart_id,
      );
      expect(await refusalStatus(service.resolveTargetCart(principalOf(bob), named.cart_id))).toBe(
        404,
      );

      const companyId = await newCompany(ctx, user);
      const intent = principalOf(user, companyId);
      // The default is not the intent's: it gets the user's cart for its company instead.
      const ofCompany = await service.resolveTargetCart(intent);
      expect(ofCompany).toMatchObject({ isDefault: false, isIntentCart: true, companyId });
      expect((await service.resolveTargetCart(intent)).id).toBe(ofCompany.id);
    });

    it('tells why a line may not join a cart: another company or currency', async () => {
      const service = ctx.app.get(DefaultCarts);
      const intent = await createIntent(ctx, alice, companyA);
      const cart = await createCart(ctx, intent);
      const entity = await service.resolveTargetCart(principalOf(alice, companyA), cart.cart_id);
      expect(await service.lineProblems(entity, companyA, 'EUR')).toEqual([]);
      await insertLine(ctx, { ...ids(cart), total: '1.00' });
      const otherCompany = await newCompany(ctx, alice);
      const problems = await service.lineProblems(entity, otherCompany, 'USD');
      expect(problems.map((p) => p.code)).toEqual(['cart_company_mismatch', 'currency_mismatch']);
    });
  });

  describe('exactly one default cart per user, under concurrency', () => {
    it('20 parallel first carts: all 201, exactly one default', async () => {
      const user = await newUser();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          ctx.http
            .post('/v1/carts/new')
            .set(bearer(user.token))
            .send({ reference: `r${i}` }),
        ),
      );
      expect(answers.map((res) => res.status)).toEqual(Array(20).fill(201));
      expect(answers.filter((res) => res.body.data.default === true)).toHaveLength(1);
      expect(await cartsOf(user.id)).toBe(20);
      expect(await defaultsOf(user.id)).toBe(1);

      // The service directly: no HTTP stack staggering the calls, so they really collide.
      const other = await newUser();
      const carts = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          ctx.app.get(DefaultCarts).create(principalOf(other), { reference: `s${i}` }),
        ),
      );
      expect(carts.filter((cart) => cart.isDefault)).toHaveLength(1);
      expect(await cartsOf(other.id)).toBe(20);
      expect(await defaultsOf(other.id)).toBe(1);
    });

    it('20 parallel moves of the default: all 201, exactly one default', async () => {
      const user = await newUser();
      await createCart(ctx, user.token);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          ctx.http
            .post('/v1/carts/new')
            .set(bearer(user.token))
            .send({ reference: `m${i}`, default: true }),
        ),
      );
      expect(answers.map((res) => res.status)).toEqual(Array(20).fill(201));
      expect(await defaultsOf(user.id)).toBe(1);
      const current = await ctx.http.get('/v1/carts/default').set(bearer(user.token));
      const ids = answers.map((res) => res.body.data.cart_id);
      expect(ids).toContain((expectEnvelope(current, 200).data as { cart_id: string }).cart_id);

      const service = ctx.app.get(DefaultCarts);
      const moved = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          service.create(principalOf(user), { reference: `d${i}`, default: true }),
        ),
      );
      expect(moved.every((cart) => cart.isDefault)).toBe(true);
      expect(await defaultsOf(user.id)).toBe(1);
      expect(await cartsOf(user.id)).toBe(41);
    });

    it('20 parallel resolveTargetCart calls: one cart, which every call gets', async () => {
      const service = ctx.app.get(DefaultCarts);
      const user = await newUser();
      const carts = await Promise.all(
        Array.from({ length: 20 }, () => service.resolveTargetCart(principalOf(user))),
      );
      expect(new Set(carts.map((cart) => cart.id)).size).toBe(1);
      expect(await cartsOf(user.id)).toBe(1);
      expect(await defaultsOf(user.id)).toBe(1);
    });

    it('resolving and moving the default at once never fails and leaves one default', async () => {
      const service = ctx.app.get(DefaultCarts);
      const user = await newUser();
      const work: Promise<unknown>[] = [];
      for (let i = 0; i < 10; i += 1) {
        work.push(service.resolveTargetCart(principalOf(user)));
        work.push(
          ctx.http
            .post('/v1/carts/new')
            .set(bearer(user.token))
            .send({ reference: `x${i}`, default: true })
            .then((res) => expect(res.status, JSON.stringify(res.body)).toBe(201)),
        );
      }
      await Promise.all(work);
      expect(await defaultsOf(user.id)).toBe(1);
    });
  });

  function ids(cart: { cart_id: string }) {
    return { cartId: cart.cart_id, modelId, companyId: companyA };
  }
});
