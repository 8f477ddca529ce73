import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledModels } from '../../src/engine-runtime/compiled-models.service.js';
import { bearer, expectEnvelope, problemsOf, unique } from '../support/factories.js';
import {
  createModelWorld,
  sendModel,
  slowCompileModel,
  uploadMinimalModel,
  uploadModel,
  type ModelWorld,
  type TestModel,
} from '../support/model.factories.js';
import { sample } from '../support/prometheus-text.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

/**
 * A hostile model: compiles in milliseconds, but answering `a` runs a million-step
 * comprehension (seconds); `b` is instant. The cost limits are raised for this app so
 * that only the deadline stands in its way, as it would for work the limits misjudge.
 */
function heavyModel(code: string): Record<string, unknown> {
  const list = `[${Array.from({ length: 150 }, (_, i) => i).join(',')}]`;
  return {
    general: { name: `Heavy ${code}`, code },
    questions: [
      {
        key: 'q0',
        type: 'choice',
        label: 'Q',
        options: [
          { key: 'a', label: 'A' },
          { key: 'b', label: 'B' },
        ],
      },
    ],
    variables: [
      {
        key: 'heavy',
        expr: `q0 == 'a' ? ${list}.all(x, ${list}.all(y, ${list}.all(z, x + y + z >= 0))) : true`,
      },
    ],
  };
}

const TIMEOUT_MS = 300;

describe('engine workers: deadlines, quarantine, a killed worker, fair compiles', () => {
  let ctx: TestContext;
  let attacker: ModelWorld;
  let victim: ModelWorld;
  let heavy: TestModel;
  let small: TestModel;

  beforeAll(async () => {
    ctx = await createTestApp({
      EVALUATION_TIMEOUT_MS: String(TIMEOUT_MS),
      MODEL_EXPRESSION_COST_LIMIT: '1000000000',
      EVALUATION_COST_BUDGET: '1000000000',
      EVALUATION_WORKERS: '2',
      COMPILE_WORKERS: '1',
      COMPILE_QUEUE_SIZE: '5',
    });
    attacker = await createModelWorld(ctx);
    victim = await createModelWorld(ctx);
    heavy = await uploadModel(
      ctx,
      attacker.supplier.id,
      attacker.supplierMember.token,
      heavyModel(unique('H')),
    );
    small = await uploadMinimalModel(ctx, victim);
  }, 120_000);

  afterAll(async () => {
    await ctx?.close();
  });

  const preview = (world: ModelWorld, model: TestModel, questions: Record<string, unknown>) =>
    ctx.http
      .post('/v1/carts/preview')
      .set(bearer(world.companyMember.token))
      .send({ model_id: model.id, company_id: world.company.id, questions });
  const heavyA = () => preview(attacker, heavy, { q0: { values: ['a'] } });
  /** The value of one of the engine's counters now, as Prometheus would scrape it. */
  const counter = async (name: string, labels: Record<string, string> = {}) =>
    sample((await ctx.http.get('/metrics').expect(200)).text, name, labels);
  const restarts = (reason: string) =>
    counter('configurator_engine_worker_restarts_total', { lane: 'evaluation', reason });
  const smallOne = () => preview(victim, small, { size: { values: ['s'] } });

  it('ends an evaluation at its deadline (422), keeps answering others, then quarantines the version until a new one', async () => {
    expect(await restarts('deadline')).toBe(0);
    for (let strike = 1; strike <= 3; strike++) {
      const [slow, other, live] = await Promise.all([
        heavyA(),
        smallOne(),
        ctx.http.get('/health/live'),
      ]);
      expect(problemsOf(expectEnvelope(slow, 422))[0].code).toBe('evaluation_timeout');
      expect((expectEnvelope(other, 200).data as { valid: boolean }).valid).toBe(true);
      expect(live.status).toBe(200);
    }
    // Quarantined: refused without running, whatever the answers (`b` alone is instant).
    const refused = await preview(attacker, heavy, { q0: { values: ['b'] } });
    expect(ctx.app.get(CompiledModels).busyEvaluationWorkers()).toHaveLength(0);
    const problem = problemsOf(expectEnvelope(refused, 422))[0];
    expect(problem.code).toBe('evaluation_timeout');
    expect(problem.message).toContain('until a new version is uploaded');
    // Each strike ended its worker at the deadline; the third quarantined the version.
    expect(await restarts('deadline')).toBe(3);
    expect(await counter('configurator_engine_quarantines_total')).toBe(1);
    // A new version is evaluated again.
    const url = `/v1/models/${heavy.id}`;
    const token = attacker.supplierMember.token;
    const next = await sendModel(ctx, 'put', url, token, heavyModel(unique('H')));
    expect((expectEnvelope(next, 200).data as TestModel).version_number).toBe(2);
    const fresh = await preview(attacker, heavy, { q0: { values: ['b'] } });
    expect((expectEnvelope(fresh, 200).data as { valid: boolean }).valid).toBe(true);
  });

  it('fails a request whose worker is killed mid-evaluation cleanly (503), and the next one works', async () => {
    const running = heavyA();
    const pool = ctx.app.get(CompiledModels);
    // The request is sent once awaited: poll until its evaluation occupies a worker.
    const response = running.then((res) => res);
    let busy = pool.busyEvaluationWorkers();
    for (let i = 0; i < 200 && busy.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      busy = pool.busyEvaluationWorkers();
    }
    expect(busy.length).toBeGreaterThan(0);
    await Promise.all(busy.map((worker) => worker.terminate()));
    const failed = await response;
    expect(problemsOf(expectEnvelope(failed, 503))[0].code).toBe('engine_worker_failed');
    expect(await restarts('crashed')).toBe(busy.length);
    expect(failed.headers['retry-after']).toBe('1');
    expect((expectEnvelope(await smallOne(), 200).data as { valid: boolean }).valid).toBe(true);
    const answered = await preview(attacker, heavy, { q0: { values: ['b'] } });
    expect((expectEnvelope(answered, 200).data as { valid: boolean }).valid).toBe(true);
  });

  it("serves another supplier's upload during one supplier's compile flood (201), refusing the flood past its bound", async () => {
    const token = attacker.supplierMember.token;
    const url = `/v1/suppliers/${attacker.supplier.id}/models`;
    const bodies = Array.from({ length: 8 }, () => slowCompileModel(unique('F')));
    const flood = bodies.map((body) =>
      sendModel(ctx, 'post', url, token, body).then((res) => ({ res, at: Date.now() })),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const victimUpload = sendModel(
      ctx,
      'post',
      `/v1/suppliers/${victim.supplier.id}/models`,
      victim.supplierMember.token,
      slowCompileModel(unique('V')),
    ).then((res) => ({ res, at: Date.now() }));
    const [mine, ...theirs] = await Promise.all([victimUpload, ...flood]);
    expect(mine.res.status, JSON.stringify(mine.res.body)).toBe(201);
    const statuses = theirs.map(({ res }) => res.status);
    expect(
      statuses.every((status) => status === 201 || status === 503),
      String(statuses),
    ).toBe(true);
    // One running and COMPILE_QUEUE_SIZE (5) waiting; the rest turned away at once.
    expect(statuses.filter((status) => status === 503)).toHaveLength(2);
    const refused = { lane: 'compile' };
    expect(await counter('configurator_engine_tasks_refused_total', refused)).toBe(2);
    // Round robin: the victim waits for the compile running and at most one more of the
    // flood's, not for the five queued before it arrived.
    const after = theirs.filter(({ res, at }) => res.status === 201 && at > mine.at);
    expect(after.length).toBeGreaterThanOrEqual(3);
  });
});
