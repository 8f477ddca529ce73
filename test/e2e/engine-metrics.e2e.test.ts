import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { MetricsService } from '../../src/metrics/metrics.service.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expectEnvelope } from '../support/factories.js';
import { LogCapture } from '../support/log-capture.js';
import { sample, samples } from '../support/prometheus-text.js';
import {
  createModelWorld,
  minimalModel,
  sendModel,
  slowCompileModel,
  uploadMinimalModel,
  uploadModel,
  type ModelWorld,
} from '../support/model.factories.js';
import { createTestApp, type TestContext } from '../support/test-app.js';

const ANSWERS = { size: { values: ['l'] } };

describe('metrics an operator acts on: engine lanes, database pool, probes', () => {
  let ctx: TestContext;
  let world: ModelWorld;
  const logs = new LogCapture();

  beforeAll(async () => {
    // One worker caching one version: a second upload evicts the first, whose next use
    // compiles it again.
    const env = { COMPILED_MODEL_CACHE_SIZE: '1', EVALUATION_WORKERS: '1', LOG_LEVEL: 'log' };
    ctx = await createTestApp(env, undefined, { logs });
    world = await createModelWorld(ctx);
  });
  afterAll(() => ctx?.close());

  const scrape = async (): Promise<string> => (await ctx.http.get('/metrics').expect(200)).text;
  const preview = (modelId: number) =>
    ctx.http
      .post('/v1/carts/preview')
      .set(bearer(world.companyMember.token))
      .send({ model_id: modelId, company_id: world.company.id, questions: ANSWERS });
  const upload = (code: string) =>
    uploadModel(ctx, world.supplier.id, world.supplierMember.token, minimalModel(code));

  it('shows queue depth and wait, tasks in flight and compile durations per lane after a compile and an evaluation', async () => {
    const first = await upload('metrics-first');
    expectEnvelope(await preview(first.id), 200);
    await upload('metrics-second'); // evicts the first version from its worker
    expectEnvelope(await preview(first.id), 200); // compiles the stored version again (load)
    const text = await scrape();
    for (const lane of ['compile', 'evaluation']) {
      expect(sample(text, 'configurator_engine_queue_depth', { lane }), lane).toBe(0);
      expect(
        sample(text, 'configurator_engine_queue_wait_seconds_count', { lane }),
      ).toBeGreaterThan(0);
      expect(sample(text, 'configurator_engine_tasks_refused_total', { lane })).toBe(0);
    }
    // Uploads compile in the compile lane (build), a miss in the evaluation lane (load).
    const compiles = 'configurator_engine_compile_duration_seconds_count';
    expect(sample(text, compiles, { lane: 'compile', task: 'build', outcome: 'ok' })).toBe(2);
    expect(sample(text, compiles, { lane: 'evaluation', task: 'load', outcome: 'ok' })).toBe(1);
    // Nothing runs between requests: every task that started has ended.
    const inFlight = (task: string) =>
      sample(text, 'configurator_engine_tasks_in_flight', { lane: 'evaluation', task });
    expect(inFlight('evaluate')).toBe(0);
    expect(inFlight('load')).toBe(0);
    expect(sample(text, 'configurator_engine_quarantines_total')).toBe(0);
    // Counted from 0 in each lane and reason: an alert's `increase` sees the first loss.
    for (const lane of ['compile', 'evaluation'])
      for (const reason of ['deadline', 'crashed', 'out_of_memory'])
        expect(sample(text, 'configurator_engine_worker_restarts_total', { lane, reason })).toBe(0);
  });

  it("shows the database pool (PostgreSQL's connections, SQLite's transaction queue)", async () => {
    const text = await scrape();
    expect(sample(text, 'configurator_db_pool_waiting')).toBe(0);
    const acquired = (outcome: string) =>
      sample(text, 'configurator_db_pool_acquire_seconds_count', { outcome });
    expect(acquired('ok')).toBeGreaterThan(0);
    expect(acquired('failed')).toBe(0);
    if (ctx.config.database.type === 'postgres') {
      expect(sample(text, 'configurator_db_pool_connections_idle')).toBeGreaterThan(0);
      expect(sample(text, 'configurator_db_pool_connections_in_use')).toBeGreaterThanOrEqual(0);
    } else {
      expect(sample(text, 'configurator_db_pool_connections_in_use')).toBeUndefined();
    }
    // Without REDIS_URL there is no Redis to report on.
    expect(text).not.toContain('configurator_redis_up');
  });

  it('keeps the number of series bounded under a scan of random paths and ids', async () => {
    const scan = async () => {
      for (let i = 0; i < 40; i++) {
        const id = randomBytes(6).toString('hex');
        await ctx.http.get(`/${id}/${id}.php`).expect(404);
        await ctx.http.delete(`/v1/tokens/${id}`).expect(401);
        // An unknown model: refused before any engine work, whatever its id.
        const refused = await preview(Number.parseInt(id.slice(0, 6), 16));
        expect([403, 404]).toContain(refused.status);
      }
    };
    // The app's series (the process's own, GC kinds and the like, appear as the process runs).
    const appSeries = async () => {
      const all = samples(await scrape());
      for (const series of all.keys()) if (/^(nodejs|process)_/.test(series)) all.delete(series);
      return all;
    };
    await scan();
    const before = await appSeries();
    await scan();
    const after = await appSeries();
    expect([...after.keys()].filter((series) => !before.has(series))).toEqual([]);
    expect(after.size).toBe(before.size);
  });

  it('labels probe answers and logs a readiness 503 as a warning, not an error', async () => {
    await ctx.http.get('/health/live').expect(200);
    let text = await scrape();
    const live = { route: '/health/live', status: '200', probe: 'true' };
    expect(sample(text, 'http_requests_total', live)).toBeGreaterThan(0);
    expect(
      sample(text, 'http_requests_total', { route: '/v1/carts/preview', probe: 'false' }),
    ).toBeGreaterThan(0);
    // The database goes away: readiness says so, which is the probe doing its job.
    await ctx.app.get(DataSource).destroy();
    const from = logs.text.length;
    expectEnvelope(await ctx.http.get('/health/ready'), 503);
    text = await scrape();
    const notReady = { route: '/health/ready', status: '503', probe: 'true' };
    expect(sample(text, 'http_requests_total', notReady)).toBe(1);
    const lines = logs
      .lines()
      .slice(0)
      .filter((line) => line.route === '/health/ready');
    expect(logs.text.length).toBeGreaterThan(from);
    expect(lines.at(-1)).toEqual(expect.objectContaining({ level: 'warn', status: 503 }));
  });
});

describe('metrics: a compile moved from the quick lane to the compile workers', () => {
  it('counts it as moved, not as a failed compile or a lost worker', async () => {
    // One compile worker and a quick lane far too short for this model: the second upload,
    // sent while the first compiles, starts in the quick lane and moves on.
    const ctx = await createTestApp({ COMPILE_WORKERS: '1', COMPILE_LANE_MS: '5' });
    try {
      const world = await createModelWorld(ctx);
      const uploads = await Promise.all(
        ['moved-a', 'moved-b'].map((code) =>
          sendModel(
            ctx,
            'post',
            `/v1/suppliers/${world.supplier.id}/models`,
            world.supplierMember.token,
            slowCompileModel(code),
          ),
        ),
      );
      for (const res of uploads) expectEnvelope(res, 201);
      const text = (await ctx.http.get('/metrics').expect(200)).text;
      const compiles = (outcome: string) =>
        sample(text, 'configurator_engine_compile_duration_seconds_count', {
          lane: 'compile',
          task: 'build',
          outcome,
        });
      expect(compiles('ok')).toBe(2);
      expect(compiles('moved')).toBe(1);
      expect(compiles('failed') ?? 0).toBe(0);
      for (const reason of ['deadline', 'crashed', 'out_of_memory'])
        expect(
          sample(text, 'configurator_engine_worker_restarts_total', { lane: 'compile', reason }),
          reason,
        ).toBe(0);
    } finally {
      await ctx.close();
    }
  });
});

describe('metrics: Redis up or down (REDIS_URL)', () => {
  it('reports configurator_redis_up 1 while Redis answers and 0 when it does not', async () => {
    const up = await createTestApp({ REDIS_URL: 'redis://127.0.0.1:6379' });
    try {
      // Until its connection is ready (just after start, on a loaded machine) the gauge
      // rightly says 0: scraped until Redis has had its chance to answer.
      let value: number | undefined;
      for (let tries = 0; tries < 50 && value !== 1; tries++) {
        if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 200));
        value = sample((await up.http.get('/metrics').expect(200)).text, 'configurator_redis_up');
      }
      expect(value).toBe(1);
    } finally {
      await up.close();
    }
    // Nothing listens on port 1: the client keeps reconnecting, the scrape still answers.
    const down = await createTestApp({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const text = (await down.http.get('/metrics').expect(200)).text;
      expect(sample(text, 'configurator_redis_up')).toBe(0);
    } finally {
      await down.close();
    }
  });
});

describe('metrics off (METRICS_ENABLED=false)', () => {
  it('serves no /metrics and measures nothing, while the app answers as usual', async () => {
    const ctx = await createTestApp({ METRICS_ENABLED: 'false' });
    try {
      await ctx.http.get('/health/live').expect(200);
      expectEnvelope(await ctx.http.get('/metrics'), 404);
      const world = await createModelWorld(ctx);
      const model = await uploadMinimalModel(ctx, world, 'metrics-off');
      const previewed = await ctx.http
        .post('/v1/carts/preview')
        .set(bearer(world.companyMember.token))
        .send({ model_id: model.id, company_id: world.company.id, questions: ANSWERS });
      expectEnvelope(previewed, 200);
      const { registry } = ctx.app.get(MetricsService);
      expect(await registry.getSingleMetricAsString('http_requests_total')).not.toMatch(
        /^http_requests_total\{/m,
      );
      // Nor the evaluation the preview ran (the histogram has no series without observations).
      expect(
        await registry.getSingleMetricAsString('configurator_engine_evaluation_duration_seconds'),
      ).not.toMatch(/_count\{/);
    } finally {
      await ctx.close();
    }
  });
});
