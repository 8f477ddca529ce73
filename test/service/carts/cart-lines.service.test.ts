import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CartLinesService } from '../../../src/carts/cart-lines.service.js';
import { CartRepository } from '../../../src/carts/cart.repository.js';
import { DefaultCarts } from '../../../src/carts/default-carts.service.js';
import type { PreviewLineDto } from '../../../src/carts/dto/cart-line-result.dto.js';
import { ApiError } from '../../../src/common/errors/api-error.js';
import { createServiceContext, type ServiceContext } from '../../support/service-context.js';
import { createServiceWorld, lineRow, type ServiceWorld } from '../../support/service-world.js';

/**
 * A line the one-statement insert does not admit (CartLinesService.add): the refusal is
 * the one the separate checks give, and nothing is stored. On both databases.
 */
describe('CartLinesService.add refusals', () => {
  let ctx: ServiceContext;
  let w: ServiceWorld;
  let lines: CartLinesService;
  let carts: CartRepository;

  beforeAll(async () => {
    ctx = await createServiceContext();
    w = await createServiceWorld(ctx);
    lines = ctx.get(CartLinesService);
    carts = ctx.get(CartRepository);
  });
  afterAll(() => ctx?.close());

  const configuration = () => ({
    model_id: w.modelM,
    company_id: w.companyA,
    questions: { size: { values: ['s'] } },
  });

  async function refusal(work: Promise<unknown>): Promise<ApiError> {
    const error: unknown = await work.then(
      () => null,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }

  it('a cart of another currency: 401 currency_mismatch, the cart unchanged', async () => {
    const principal = w.alice;
    const preview = (await lines.preview(principal, configuration())).toJSON() as PreviewLineDto;
    const other = preview.pricing.currency === 'USD' ? 'CHF' : 'USD';
    const cart = await ctx.get(DefaultCarts).create(principal, { reference: 'r', default: true });
    await carts.withCartLocked(cart.id, (locked) => locked.insertLine(lineRow(w, cart.id, other)));
    const error = await refusal(lines.add(principal, configuration()));
    expect(error.getStatus()).toBe(401);
    expect(error.problems.map((p) => p.code)).toEqual(['currency_mismatch']);
    expect((await carts.pageOfLines(cart.id, 0, 10))[1]).toBe(1);
  });
});
