import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainedModel } from '../../bench/faults/fault-models.mjs';
import { bearer, expectEnvelope } from '../support/factories.js';
import {
  createModelWorld,
  minimalModel,
  uploadModel,
  type ModelWorld,
} from '../support/model.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';
import { CompiledModels } from '../../src/engine-runtime/compiled-models.service.js';

describe('compiled models: cache misses compile the stored definition again', () => {
  let ctx: TestContext;
  let world: ModelWorld;

  beforeAll(async () => {
    // One cached version: each upload evicts the previous model.
    ctx = await createTestApp({ COMPILED_MODEL_CACHE_SIZE: '1' });
    world = await createModelWorld(ctx);
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('previews a model evicted from the cache, with the same line as before', async () => {
    const upload = (code: string) =>
      uploadModel(ctx, world.supplier.id, world.supplierMember.token, minimalModel(code));
    const preview = (modelId: number) =>
      ctx.http
        .post('/v1/carts/preview')
        .set(bearer(world.companyMember.token))
        .send({
          model_id: modelId,
          company_id: world.company.id,
          questions: { size: { values: ['l'] } },
        });
    const first = await upload('first');
    const cached = expectEnvelope(await preview(first.id), 200).data as Record<string, any>;
    await upload('second'); // evicts `first`
    const recompiled = expectEnvelope(await preview(first.id), 200).data as Record<string, any>;
    expect(recompiled.valid).toBe(true);
    expect(recompiled.pricing.total).toBe('110.00');
    delete cached.cache.evaluated_in_ms;
    delete recompiled.cache.evaluated_in_ms;
    expect(recompiled).toEqual(cached);
  });

  it('answers an upload once its version is ready in its evaluation worker (ADR 0197)', async () => {
    // Large enough that its revival and first evaluations take a while.
    const chain = chainedModel('prepared', 120);
    const model = await uploadModel(ctx, world.supplier.id, world.supplierMember.token, chain);
    // The hand-over and the empty configuration's evaluations are done, not under way.
    expect(ctx.app.get(CompiledModels).busyEvaluationWorkers()).toHaveLength(0);
    const line = await ctx.http
      .post('/v1/carts/preview')
      .set(bearer(world.companyMember.token))
      .send({ model_id: model.id, company_id: world.company.id, questions: {} });
    expect(expectEnvelope(line, 200).data).toMatchObject({ id: null, view: 'full' });
  });
});
