import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectEnvelope } from '../support/factories.js';
import { LogCapture } from '../support/log-capture.js';
import { createModelWorld, uploadModel, type ModelWorld } from '../support/model.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/** A model whose compiled form is well over 1 MiB: many options with long labels. */
function wideModel(code: string): Record<string, unknown> {
  const questions = Array.from({ length: 60 }, (_, q) => ({
    key: `q${q}`,
    type: 'choice',
    label: `Question ${q}`,
    options: Array.from({ length: 100 }, (_, o) => ({
      key: `o${o}`,
      label: `Option ${o} of question ${q} `.padEnd(400, 'x'),
      price: '1.00',
    })),
  }));
  return { general: { name: 'Wide', code }, questions, pricing: { base_price: '10.00' } };
}

describe('a version larger than the compiled-model cache is evaluated, never a 500', () => {
  const logs = new LogCapture();
  let ctx: TestContext;
  let world: ModelWorld;

  beforeAll(async () => {
    // The smallest cache bound: one worker, 1 MiB.
    ctx = await createTestApp(
      {
        COMPILED_MODEL_CACHE_BYTES: String(1024 * 1024),
        EVALUATION_WORKERS: '1',
        LOG_LEVEL: 'warn',
      },
      undefined,
      { logs },
    );
    world = await createModelWorld(ctx);
  });

  afterAll(async () => {
    await ctx?.close();
  });

  // Every task compiles the version afresh: seconds each on a loaded machine.
  it(
    'reads, describes and previews the model again and again with 2xx',
    { timeout: 120_000 },
    async () => {
      const model = await uploadModel(
        ctx,
        world.supplier.id,
        world.supplierMember.token,
        wideModel('WIDE'),
      );
      for (let round = 0; round < 2; round++) {
        const read = await ctx.http
          .get(`/v1/models/${model.id}`)
          .set(bearer(world.supplierMember.token));
        expect(expectEnvelope(read, 200).data).toMatchObject({ id: model.id });
        const described = await ctx.http
          .get(`/v1/companies/${world.company.id}/models`)
          .set(bearer(world.companyMember.token));
        const listed = expectEnvelope(described, 200).data as Array<{ id: number }>;
        expect(listed.map((m) => m.id)).toContain(model.id);
        const preview = await ctx.http
          .post('/v1/carts/preview')
          .set(bearer(world.companyMember.token))
          .send({
            model_id: model.id,
            company_id: world.company.id,
            questions: { q0: { values: ['o1'] }, q1: { values: ['o2'] } },
          });
        const line = expectEnvelope(preview, 200).data as { valid: boolean; pricing: object };
        expect(line.valid).toBe(true);
        expect(line.pricing).toMatchObject({ total: '12.00' });
      }
      // The path taken: the version was compiled for each task, not kept.
      expect(logs.all()).toMatch(/larger than a worker's cache share: not cached/);
    },
  );
});
