import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLines } from '../support/built-server.js';
import { bearer, expectEnvelope } from '../support/factories.js';
import {
  createModelWorld,
  minimalModel,
  uploadModel,
  type ModelWorld,
} from '../support/model.factories.js';
import { OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { createTestApp } from '../support/test-app.js';

/**
 * OpenTelemetry traces from the built service as it runs in production (main.ts starts the
 * SDK before the app loads), exported over OTLP/HTTP JSON to a receiver in this test.
 */
describe('tracing: one cart add, from the caller through HTTP, the database and the engine worker', () => {
  const receiver = new OtlpReceiver();
  let server: ServerProcess;
  let world: ModelWorld;
  let modelId: number;

  beforeAll(async () => {
    const endpoint = await receiver.start();
    server = await startServerProcess({
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_SERVICE_NAME: 'configurator-under-test',
      LOG_LEVEL: 'log',
      // Logins count their failures in Redis: its commands are spans of the login.
      REDIS_URL: 'redis://127.0.0.1:6379',
    });
    world = await createModelWorld(server);
    modelId = (
      await uploadModel(
        server,
        world.supplier.id,
        world.supplierMember.token,
        minimalModel('traced'),
      )
    ).id;
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await receiver.close();
  });

  it('continues the caller’s trace: HTTP span, database spans, and the engine’s spans below it', async () => {
    const traceId = randomBytes(16).toString('hex');
    const callerSpan = randomBytes(8).toString('hex');
    const res = await server.http
      .post('/v1/carts')
      .set(bearer(world.companyMember.token))
      .set('traceparent', `00-${traceId}-${callerSpan}-01`)
      .send({
        model_id: modelId,
        company_id: world.company.id,
        questions: { size: { values: ['l'] } },
      });
    expectEnvelope(res, 201);
    // The trace goes back to the caller too.
    expect(res.headers.traceresponse).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));

    const inTrace = (name: string) => (span: { name: string; traceId: string }) =>
      span.traceId === traceId && span.name === name;
    await receiver.waitFor(inTrace('engine.evaluate'));
    await receiver.waitFor((span) => span.traceId === traceId && span.parentSpanId === callerSpan);
    const httpSpan = receiver.spans.find(
      (span) => span.traceId === traceId && span.parentSpanId === callerSpan,
    );
    // Named by its route, as metrics and logs label it (no express instrumentation: ADR 0175).
    expect(httpSpan?.name).toBe('POST /v1/carts');
    expect(httpSpan?.attributes['http.route']).toBe('/v1/carts');
    expect(httpSpan?.scope).toBe('configurator-http');
    expect(httpSpan?.attributes).toEqual(
      expect.objectContaining({ 'http.request.method': 'POST', 'url.path': '/v1/carts' }),
    );
    expect(Number(httpSpan?.attributes['http.response.status_code'])).toBe(201);

    // The engine's work, made in the worker, hangs below the HTTP span.
    const evaluate = receiver.spans.find(inTrace('engine.evaluate'));
    expect(evaluate?.attributes).toEqual(
      expect.objectContaining({ 'engine.task': 'evaluate', 'configurator.model_id': modelId }),
    );
    expect(receiver.ancestors(evaluate!).map((span) => span.spanId)).toContain(httpSpan?.spanId);
    await receiver.waitFor(inTrace('engine.queue_wait'));
    const wait = receiver.spans.find(inTrace('engine.queue_wait'));
    expect(wait?.attributes['engine.lane']).toBe('evaluation');
    expect(receiver.ancestors(wait!).map((span) => span.spanId)).toContain(httpSpan?.spanId);

    // On PostgreSQL the statements are spans of the same trace (SQLite has no client to hook).
    if (process.env.DATABASE_URL) {
      await receiver.waitFor(
        (span) => span.traceId === traceId && span.scope === '@opentelemetry/instrumentation-pg',
      );
    }

    // The request's log lines carry the trace id.
    const line = jsonLines(server.output()).find(
      (entry) => entry.route === '/v1/carts' && entry.status === 201 && entry.trace_id === traceId,
    );
    expect(line).toEqual(expect.objectContaining({ method: 'POST', trace_id: traceId }));
  });

  it('leaves a request its caller did not sample untraced, down to its statements', async () => {
    const add = (traceparent: string) =>
      server.http
        .post('/v1/carts')
        .set(bearer(world.companyMember.token))
        .set('traceparent', traceparent)
        .send({
          model_id: modelId,
          company_id: world.company.id,
          questions: { size: { values: ['l'] } },
        });
    const unsampled = randomBytes(16).toString('hex');
    const res = await add(`00-${unsampled}-${randomBytes(8).toString('hex')}-00`);
    expectEnvelope(res, 201);
    expect(res.headers.traceresponse).toBeUndefined();
    // Spans are exported in the order they end: once a later request's HTTP span is in,
    // anything the unsampled one had made would be too.
    const sampled = randomBytes(16).toString('hex');
    expectEnvelope(await add(`00-${sampled}-${randomBytes(8).toString('hex')}-01`), 201);
    await receiver.waitFor((span) => span.traceId === sampled && span.name === 'POST /v1/carts');

    expect(receiver.spans.filter((span) => span.traceId === unsampled)).toEqual([]);
    // No statement started a trace of its own for want of a sampled parent.
    expect(
      receiver.spans.filter((span) => !span.parentSpanId && span.scope !== 'configurator-http'),
    ).toEqual([]);
    expect(jsonLines(server.output()).some((entry) => entry.trace_id === unsampled)).toBe(false);
  });

  it('traces the Redis commands of a login below its HTTP span, by command name only', async () => {
    const isRedis = (span: ReceivedSpan) => span.scope === '@opentelemetry/instrumentation-ioredis';
    await receiver.waitFor(isRedis);
    const commands = receiver.spans.filter(isRedis);
    for (const command of commands) {
      const chain = receiver.ancestors(command);
      expect(chain.map((span) => span.name)).toContain('POST /v1/login');
      // The keys name emails, client addresses and device hashes: none leaves the process.
      const text = String(command.attributes['db.query.text']);
      expect(text, command.name).toMatch(/^[a-z]+$/i);
      expect(JSON.stringify(command.attributes)).not.toMatch(/ratelimit|@/);
    }
  });

  it('records uploads as a compile in the compile worker, below their HTTP span', async () => {
    await receiver.waitFor((span) => span.name === 'engine.compile');
    const compile = receiver.spans.find((span) => span.name === 'engine.compile');
    expect(compile?.attributes['engine.task']).toBe('build');
    const chain = receiver.ancestors(compile!);
    expect(chain.some((span) => span.scope === 'configurator-http')).toBe(true);
  });
});

describe('tracing off (no OTEL_* exporter asked for)', () => {
  it('hands back no trace and logs no trace id', async () => {
    const ctx = await createTestApp();
    try {
      const res = await ctx.http
        .get('/health/live')
        .set('traceparent', `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`);
      expect(res.status).toBe(200);
      expect(res.headers.traceresponse).toBeUndefined();
    } finally {
      await ctx.close();
    }
  });
});
