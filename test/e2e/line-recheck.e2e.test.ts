import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectEnvelope } from '../support/factories.js';
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
import { createApiToken, createIntent } from '../support/org.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/**
 * Version 2 of the window for these tests: windowV2 (alu 95.00, black), oak removed, a
 * sill with a default, and a wood finish required for wooden frames.
 */
const recheckV2 = (): string =>
  windowV2()
    .replace('      - key: oak\n        label: Oak finish\n        price: "60.00"\n', '')
    .replace('        - [wood, oak]\n', '')
    .replace(
      '\nvariables:\n',
      '  - key: sill\n    type: choice\n    label: Window sill\n    default: none\n' +
        '    options:\n      - key: none\n        label: No sill\n' +
        '      - key: stone\n        label: Stone sill\n        price: "30.00"\n' +
        '  - key: finish\n    type: choice\n    label: Wood finish\n    required: true\n' +
        '    visible_if: "frame == \'wood\'"\n    options:\n      - key: oiled\n        label: Oiled\n' +
        '\nvariables:\n',
    );

const ALU_WHITE = {
  width: { values: [1200] },
  height: { values: [1000] },
  frame: { values: ['alu'] },
  color: { values: ['white'] },
};
const WOOD_OAK = { ...ALU_WHITE, frame: { values: ['wood'] }, color: { values: ['oak'] } };

describe('rechecking lines against a newer model version, and its impact', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let other: ModelWorld;
  let window: TestModel;
  let cartId: string;
  let aluLine: number;
  let oakLine: number;
  let buyerToken: string;

  const recheck = (token: string, cart: string, line: number, body = {}, query = '') =>
    ctx.http.post(`/v1/carts/${cart}/lines/${line}/recheck${query}`).set(bearer(token)).send(body);
  const impact = (token: string, version = 2, query = '') =>
    ctx.http.get(`/v1/models/${window.id}/versions/${version}/impact${query}`).set(bearer(token));

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    other = await createModelWorld(ctx);
    const supplier = world.supplierMember.token;
    window = await uploadModel(ctx, world.supplier.id, supplier, windowYaml());
    const buyer = await createCompanyMember(ctx, world);
    buyerToken = buyer.token;
    const add = async (questions: Record<string, unknown>) =>
      expectEnvelope(
        await ctx.http
          .post('/v1/carts')
          .set(bearer(buyerToken))
          .send({ model_id: window.id, company_id: world.company.id, questions }),
        201,
      ).data as { id: number; cart_id: string };
    const alu = await add(ALU_WHITE);
    const oak = await add(WOOD_OAK);
    [cartId, aluLine, oakLine] = [alu.cart_id, alu.id, oak.id];
    expectEnvelope(
      await sendModel(ctx, 'put', `/v1/models/${window.id}`, supplier, recheckV2()),
      200,
    );
  });
  afterAll(() => ctx?.close());

  it('tells what moving a valid line changes, storing nothing', async () => {
    const body = expectEnvelope(await recheck(buyerToken, cartId, aluLine), 200);
    expect(body.data).toEqual({
      line_id: aluLine,
      from_version: 1,
      to_version: 2,
      valid: true,
      // 150 + 85 + BOM 169.00 = 404.00, −10 % → 363.60; with alu at 95.00: 372.60.
      price_before: { total: '363.60', currency: 'EUR' },
      price_after: { total: '372.60', currency: 'EUR' },
      invalid_answers: [],
      newly_required: [],
      soft_defaults: [{ question: 'sill', values: ['none'], source: 'default', previous: [] }],
      changes: [],
      movable: true,
      errors: [],
      applied: false,
      etag: null,
    });
    const cart = expectEnvelope(
      await ctx.http.get(`/v1/carts/${cartId}`).set(bearer(buyerToken)),
      200,
    ).data as { lines: Array<Record<string, unknown>> };
    expect(cart.lines[0]).toMatchObject({
      version_number: 1,
      latest_version_number: 2,
      etag: '"1"',
    });
  });

  it('reports an answer the new version removed, with its reason, and the nearest valid configuration', async () => {
    const body = expectEnvelope(
      await recheck(buyerToken, cartId, oakLine, {}, '?version=latest'),
      200,
    );
    const data = body.data as Record<string, any>;
    expect(data.valid).toBe(false);
    expect(data.invalid_answers).toEqual([
      expect.objectContaining({
        question: 'color',
        values: ['oak'],
        path: expect.stringMatching(/^questions\.color/),
      }),
    ]);
    expect(data.newly_required).toEqual([{ question: 'finish', label: 'Wood finish' }]);
    // The nearest valid configuration there: another colour, the new finish filled in.
    expect(data.movable).toBe(true);
    expect(data.changes).toEqual([
      { question: 'color', from: ['oak'], to: [expect.any(String)] },
      { question: 'finish', from: [], to: ['oiled'] },
    ]);
    // Applied against a stale ETag: refused, nothing stored.
    const refused = expectEnvelope(
      await ctx.http
        .post(`/v1/carts/${cartId}/lines/${oakLine}/recheck`)
        .set(bearer(buyerToken))
        .set('If-Match', '"9"')
        .send({ apply: true }),
      409,
    );
    expect(refused.errors).toEqual([expect.objectContaining({ code: 'stale_line' })]);
    const cart = expectEnvelope(
      await ctx.http.get(`/v1/carts/${cartId}`).set(bearer(buyerToken)),
      200,
    ).data as { lines: Array<Record<string, unknown>> };
    expect(cart.lines[1]).toMatchObject({ id: oakLine, version_number: 1, etag: '"1"' });
    // Its own version still takes it: rechecking against version 1 finds nothing wrong.
    const same = expectEnvelope(await recheck(buyerToken, cartId, oakLine, {}, '?version=1'), 200);
    expect((same.data as { valid: boolean }).valid).toBe(true);
    expectEnvelope(await recheck(buyerToken, cartId, oakLine, {}, '?version=9'), 404);
    expectEnvelope(await recheck(buyerToken, cartId, oakLine, {}, '?version=two'), 400);
  });

  it("counts the version's impact per company for the supplier, leaking no buyer data", async () => {
    const res = await impact(world.supplierMember.token);
    const body = expectEnvelope(res, 200);
    expect(body.data).toEqual({
      model_id: window.id,
      version_number: 2,
      examined: 2,
      lines: 2,
      invalid: 1,
      companies: [
        {
          company_id: world.company.id,
          lines: 2,
          invalid: 1,
          problems: expect.any(Object),
        },
      ],
      complete: true,
      next_after: null,
    });
    const problems = (body.data as any).companies[0].problems as Record<string, number>;
    expect(Object.values(problems).every((count) => count === 1)).toBe(true);
    // Nothing of the lines themselves: no answer, cart or user.
    const text = JSON.stringify(body);
    for (const secret of ['oak', 'wood', 'width', '1200', cartId, 'answers', 'user']) {
      expect(text).not.toContain(secret);
    }
    // An API token of the supplier's member too; the buyer (a reader) may not; others 404.
    expectEnvelope(await impact(await createApiToken(ctx, world.supplierMember)), 200);
    expectEnvelope(await impact(buyerToken), 403);
    expectEnvelope(await impact(other.supplierMember.token), 404);
    expectEnvelope(await impact(other.companyMember.token), 404);
    expectEnvelope(
      await impact(await createIntent(ctx, world.companyMember, world.company.id)),
      401,
    );
    expectEnvelope(await impact(world.supplierMember.token, 7), 404);
  });

  it('counts the impact in bounded slices that add up to the whole', async () => {
    const token = world.supplierMember.token;
    const whole = expectEnvelope(await impact(token), 200).data as any;
    const first = expectEnvelope(await impact(token, 2, '?limit=1'), 200).data as any;
    expect(first).toMatchObject({ examined: 1, lines: 1, complete: false, next_after: aluLine });
    const second = expectEnvelope(await impact(token, 2, `?limit=1&after=${first.next_after}`), 200)
      .data as any;
    expect(second).toMatchObject({ examined: 1, lines: 1, complete: true, next_after: null });
    // The slices add up to the whole, line for line and code for code.
    expect(first.invalid + second.invalid).toBe(whole.invalid);
    const codes = (slice: any) => slice.companies.flatMap((c: any) => Object.keys(c.problems));
    expect([...codes(first), ...codes(second)].sort()).toEqual(codes(whole).sort());
    // Past the last line: nothing examined, complete.
    expect(expectEnvelope(await impact(token, 2, `?after=${oakLine}`), 200).data).toMatchObject({
      examined: 0,
      lines: 0,
      invalid: 0,
      companies: [],
      complete: true,
    });
    // Lines already on the version are read (examined) but not checked.
    expect(expectEnvelope(await impact(token, 1), 200).data).toMatchObject({
      examined: 2,
      lines: 0,
      complete: true,
    });
    for (const query of ['?limit=0', '?limit=1001', '?after=-1', '?limit=two']) {
      expectEnvelope(await impact(token, 2, query), 400);
    }
  });

  it('keeps rechecks to the line’s user, and intent tokens to their company', async () => {
    for (const token of [other.companyMember.token, world.companyMember.token, world.admin.token]) {
      expectEnvelope(await recheck(token, cartId, aluLine), 404);
      expectEnvelope(
        await ctx.http.post(`/v1/carts/${cartId}/recheck`).set(bearer(token)).send({}),
        404,
      );
    }
    const intent = await createIntent(ctx, other.companyMember, other.company.id);
    expectEnvelope(await recheck(intent, cartId, aluLine, { apply: true }), 404);
    // This JWT cart is not recorded with a company: the buyer's own intent token does not see it either.
    const ownIntent = await createIntent(ctx, world.companyMember, world.company.id);
    expectEnvelope(await recheck(ownIntent, cartId, aluLine), 404);
  });

  it('moves a valid line to version 2 (apply), and the cart-level recheck moves what it can', async () => {
    const stale = expectEnvelope(
      await recheck(buyerToken, cartId, aluLine, { apply: true }, ''),
      200,
    );
    expect(stale.data).toMatchObject({ applied: true, etag: '"2"', to_version: 2 });
    const cart = expectEnvelope(
      await ctx.http.get(`/v1/carts/${cartId}`).set(bearer(buyerToken)),
      200,
    ).data as { total: string; lines: Array<Record<string, unknown>> };
    expect(cart.lines[0]).toMatchObject({
      id: aluLine,
      version_number: 2,
      latest_version_number: null,
      total: '372.60',
      etag: '"2"',
    });
    // The cart-level recheck: only the oak line has not moved; it moves by the nearest
    // valid configuration (its answers as they are are not valid there).
    const all = expectEnvelope(
      await ctx.http
        .post(`/v1/carts/${cartId}/recheck`)
        .set(bearer(buyerToken))
        .send({ apply: true }),
      200,
    );
    expect(all.data).toMatchObject({
      cart_id: cartId,
      current: 1,
      lines: [
        expect.objectContaining({ line_id: oakLine, valid: false, movable: true, applied: true }),
      ],
    });
    // After the moves, no line is left on version 1 for the impact to count.
    const counted = expectEnvelope(await impact(world.supplierMember.token), 200);
    expect(counted.data).toMatchObject({ lines: 0, invalid: 0 });
  });

  it('rechecks the cart against a chosen version of one model (version with model_id)', async () => {
    const cartRecheck = (query: string, body = {}) =>
      ctx.http.post(`/v1/carts/${cartId}/recheck${query}`).set(bearer(buyerToken)).send(body);
    // A version number names one model's version: without model_id it is refused.
    expectEnvelope(await cartRecheck('?version=1'), 400);
    expectEnvelope(await cartRecheck(`?version=1&model_id=0`), 400);
    expectEnvelope(await cartRecheck(`?version=9&model_id=${window.id}`), 404);
    // Back to version 1 (the line recheck takes any version too): both lines move, the
    // oak line without the finish version 1 does not know.
    const back = expectEnvelope(
      await cartRecheck(`?version=1&model_id=${window.id}`, { apply: true }),
      200,
    );
    expect(back.data).toEqual({
      cart_id: cartId,
      current: 0,
      lines: [
        expect.objectContaining({
          line_id: aluLine,
          from_version: 2,
          to_version: 1,
          valid: true,
          applied: true,
        }),
        expect.objectContaining({
          line_id: oakLine,
          valid: false,
          changes: [{ question: 'finish', from: ['oiled'], to: [] }],
          applied: true,
        }),
      ],
    });
    // Another model's lines only: this cart holds none.
    expect(expectEnvelope(await cartRecheck('?version=1&model_id=999999'), 200).data).toEqual({
      cart_id: cartId,
      current: 0,
      lines: [],
    });
    // model_id with latest: that model's lines, toward its current version.
    const latest = expectEnvelope(await cartRecheck(`?model_id=${window.id}`), 200);
    expect(
      (latest.data as { lines: Array<{ line_id: number; to_version: number }> }).lines,
    ).toEqual([
      expect.objectContaining({ line_id: aluLine, to_version: 2 }),
      expect.objectContaining({ line_id: oakLine, to_version: 2 }),
    ]);
  });

  // Last: it stores version 3.
  it('gives no price for a line with no valid configuration near it on the version, and says why', async () => {
    const added = expectEnvelope(
      await ctx.http
        .post('/v1/carts')
        .set(bearer(buyerToken))
        .send({
          model_id: window.id,
          company_id: world.company.id,
          questions: {
            ...ALU_WHITE,
            frame: { values: ['wood'] },
            finish: { values: ['oiled'] },
            engraving: { values: ['HELLO'] },
          },
        }),
      201,
    ).data as { id: number; cart_id: string };
    // Version 3 refuses any engraving longer than 2: a text answer (of a wooden frame),
    // which the nearest valid configuration of the finite answers leaves as it is.
    const v3 = recheckV2().replace(
      '\nrules:\n',
      '\nrules:\n  - key: short_engraving\n    assert: "engraving == null || size(engraving) <= 2"\n    message: At most two letters\n',
    );
    expectEnvelope(
      await sendModel(ctx, 'put', `/v1/models/${window.id}`, world.supplierMember.token, v3),
      200,
    );
    const body = expectEnvelope(
      await recheck(buyerToken, added.cart_id, added.id, {}, '?version=latest'),
      200,
    );
    expect(body.data).toMatchObject({
      to_version: 3,
      valid: false,
      movable: false,
      price_after: null,
      price_after_reason: 'no valid configuration of these answers on version 3',
    });
  });
});
