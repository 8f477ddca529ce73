import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectEnvelope, problemsOf } from '../support/factories.js';
import {
  createModelWorld,
  minimalModel,
  sendModel,
  type ModelWorld,
} from '../support/model.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/** Bidi controls (RLO, LRI, ALM, LRM) and zero-width characters (ZWSP, ZWJ, word joiner, BOM). */
const INVISIBLE = ['\u202e', '\u2066', '\u061c', '\u200e', '\u200b', '\u200d', '\u2060', '\ufeff'];

describe('keys refuse bidi control and zero-width characters', () => {
  let ctx: TestContext;
  let world: ModelWorld;

  beforeAll(async () => {
    ctx = await createTestApp();
    world = await createModelWorld(ctx);
  });
  afterAll(() => ctx?.close());

  it('refuses them in an Idempotency-Key, and stores nothing', async () => {
    for (const character of INVISIBLE) {
      // Header values travel as bytes; UTF-8 is how a client sends these characters.
      const key = Buffer.from(`order-${character}42`, 'utf8').toString('latin1');
      const res = await ctx.http
        .post('/v1/carts/new')
        .set(bearer(world.companyMember.token))
        .set('Idempotency-Key', key)
        .send({ reference: 'invisible key' });
      expectEnvelope(res, 400);
      expect(problemsOf(res.body).map((p) => p.code)).toEqual(['invalid_idempotency_key']);
    }
    // The caller has no cart at all (the seed contract answers that with a 400).
    const carts = await ctx.http.get('/v1/carts').set(bearer(world.companyMember.token));
    expectEnvelope(carts, 400);
    expect(problemsOf(carts.body).map((p) => p.code)).toEqual(['not_found']);
  });

  it('refuses them in a model’s general.code, the key unique within its supplier', async () => {
    const url = `/v1/suppliers/${world.supplier.id}/models`;
    const token = world.supplierMember.token;
    const visible = await sendModel(ctx, 'post', url, token, minimalModel('WIN-CASEMENT'));
    expect(visible.status).toBe(201);
    for (const character of INVISIBLE) {
      const res = await sendModel(
        ctx,
        'post',
        url,
        token,
        minimalModel(`WIN-${character}CASEMENT`),
      );
      expectEnvelope(res, 400);
      expect(problemsOf(res.body)).toContainEqual(
        expect.objectContaining({ code: 'invalid_characters', path: 'general.code' }),
      );
    }
  });
});
