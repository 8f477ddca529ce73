import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectEnvelope, problemsOf, unique } from '../support/factories.js';
import {
  createModelWorld,
  uploadModel,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/** docs/model-format.md "rules": an assert that fails at run time with its inputs answered is an error. */
describe('a rule that fails to evaluate refuses the line', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  let model: TestModel;

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
    model = await uploadModel(ctx, world.supplier.id, world.supplierMember.token, {
      general: { name: 'Ratio', code: unique('RATIO') },
      questions: [
        { key: 'a', type: 'integer', label: 'A' },
        { key: 'b', type: 'integer', label: 'B' },
      ],
      rules: [{ key: 'ratio', assert: 'a / b > 1', message: 'A must be more than B' }],
      pricing: { base_price: '10.00' },
    });
  });
  afterAll(() => ctx?.close());

  const body = (questions: Record<string, { values: number[] }>) => ({
    model_id: model.id,
    company_id: world.company.id,
    questions,
  });

  it('pending while an input is unanswered; rule_error, and nothing stored, when b is 0', async () => {
    const token = world.companyMember.token;
    const preview = await ctx.http
      .post('/v1/carts/preview')
      .set(bearer(token))
      .send(body({ a: { values: [5] } }));
    expectEnvelope(preview, 200);
    expect(preview.body.data.rules).toEqual([
      expect.objectContaining({ key: 'ratio', status: 'pending' }),
    ]);

    const refused = await ctx.http
      .post('/v1/carts')
      .set(bearer(token))
      .send(body({ a: { values: [5] }, b: { values: [0] } }));
    expectEnvelope(refused, 401);
    expect(problemsOf(refused.body)).toEqual([
      expect.objectContaining({ code: 'rule_error', path: 'rules.ratio' }),
    ]);
    const carts = await ctx.http.get('/v1/carts').set(bearer(token));
    const lines = (carts.body.data ?? []).reduce(
      (sum: number, cart: { line_count: number }) => sum + cart.line_count,
      0,
    );
    expect(lines).toBe(0);

    const added = await ctx.http
      .post('/v1/carts')
      .set(bearer(token))
      .send(body({ a: { values: [5] }, b: { values: [2] } }));
    expectEnvelope(added, 201);
  });
});
