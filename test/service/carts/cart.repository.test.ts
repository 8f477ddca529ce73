import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CartRepository } from '../../../src/carts/cart.repository.js';
import { createServiceContext, type ServiceContext } from '../../support/service-context.js';
import { createServiceWorld, lineRow, type ServiceWorld } from '../../support/service-world.js';

/**
 * CartRepository holds the cart feature's SQLite/PostgreSQL differences: these run on
 * whichever database DATABASE_URL names (CI runs both), through its real transactions.
 */
describe('CartRepository', () => {
  let ctx: ServiceContext;
  let carts: CartRepository;
  let w: ServiceWorld;

  beforeAll(async () => {
    ctx = await createServiceContext();
    carts = ctx.get(CartRepository);
    w = await createServiceWorld(ctx);
  });
  afterAll(() => ctx?.close());

  const newCart = (userId: number, isDefault = false) =>
    carts.insert({ id: randomUUID(), userId, companyId: null, reference: 'r', isDefault });

  const line = (cartId: string, currency: string) => lineRow(w, cartId, currency);

  it('refuses a second default for a user (the partial unique index)', async () => {
    const user = await ctx.newMember();
    await newCart(user.userId, true);
    await expect(newCart(user.userId, true)).rejects.toThrow();
    expect((await carts.findDefault(user.userId))?.userId).toBe(user.userId);
  });

  it('moves the default under 20 concurrent moves: exactly one default, the user never without', async () => {
    const user = await ctx.newMember();
    await newCart(user.userId, true);
    const others = await Promise.all(Array.from({ length: 20 }, () => newCart(user.userId)));
    await Promise.all(others.map((cart) => carts.moveDefault(user.userId, cart.id)));
    const [all] = await carts.page({ userId: user.userId }, 0, 50);
    expect(all.filter((cart) => cart.isDefault)).toHaveLength(1);
    expect(others.map((cart) => cart.id)).toContain((await carts.findDefault(user.userId))?.id);
  });

  it('admits lines one at a time under the cart lock: racing currencies cannot both join', async () => {
    const user = await ctx.newMember();
    const cart = await newCart(user.userId);
    const tryAdd = (currency: string) =>
      carts.withCartLocked(cart.id, async (locked) => {
        if ((await locked.otherCurrency(cart.id, currency)) !== null) return 'refused';
        await locked.insertLine(line(cart.id, currency));
        return 'added';
      });
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => tryAdd(i % 2 === 0 ? 'EUR' : 'USD')),
    );
    const [stored] = await carts.pageOfLines(cart.id, 0, 200);
    expect(new Set(stored.map((row) => row.currency)).size).toBe(1);
    expect(outcomes.filter((o) => o === 'added')).toHaveLength(stored.length);
    expect(await carts.otherCurrency(cart.id, stored[0].currency)).toBeNull();
  });

  it('inserts in one statement only what the checks admit: one currency, at most maxLines', async () => {
    const user = await ctx.newMember();
    const cart = await newCart(user.userId);
    const tryAdd = (currency: string, maxLines: number) =>
      carts.withCartLocked(cart.id, (locked) =>
        locked.insertLineIfAdmitted(line(cart.id, currency), maxLines),
      );
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) => tryAdd(i % 2 === 0 ? 'EUR' : 'USD', 100)),
    );
    const [stored] = await carts.pageOfLines(cart.id, 0, 200);
    expect(new Set(stored.map((row) => row.currency)).size).toBe(1);
    const added = outcomes.filter((o) => o !== null);
    expect(added).toHaveLength(stored.length);
    expect(added.map((o) => o?.id).sort()).toEqual(stored.map((row) => row.id).sort());
    // Full: nothing more joins, in the cart's own currency either.
    expect(await tryAdd(stored[0].currency, stored.length)).toBeNull();
    expect(await tryAdd(stored[0].currency, stored.length + 1)).not.toBeNull();
    const [after, total] = await carts.pageOfLines(cart.id, 0, 200);
    expect(total).toBe(stored.length + 1);
    expect(after.at(-1)).toMatchObject({ currency: stored[0].currency, answers: {}, line: {} });
  });

  it('rolls the locked work back when it throws', async () => {
    const user = await ctx.newMember();
    const cart = await newCart(user.userId);
    await expect(
      carts.withCartLocked(cart.id, async (locked) => {
        await locked.insertLine(line(cart.id, 'EUR'));
        throw new Error('refused after the insert');
      }),
    ).rejects.toThrow('refused after the insert');
    expect(await carts.pageOfLines(cart.id, 0, 200)).toEqual([[], 0]);
  });

  it('scopes reads to the filter: user, and company for intent tokens', async () => {
    const user = await ctx.newMember();
    const cart = await carts.insert({
      id: randomUUID(),
      userId: user.userId,
      companyId: w.companyA,
      reference: 'shop',
      isDefault: false,
    });
    expect((await carts.findIn({ userId: user.userId }, cart.id))?.id).toBe(cart.id);
    expect(
      await carts.findIn({ userId: user.userId, companyId: w.companyA }, cart.id),
    ).not.toBeNull();
    expect(await carts.findIn({ userId: user.userId, companyId: 0 }, cart.id)).toBeNull();
    expect(await carts.findIn({ userId: w.bob.userId }, cart.id)).toBeNull();
  });
});
