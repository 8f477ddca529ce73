import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OtlpReceiver } from '../support/otlp-receiver.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/**
 * The standard OTEL_* variables operators set to start tracing (NodeSDK reads them:
 * src/tracing/start-tracing.ts, docs/OPERATIONS.md "Traces"), each honoured by the built service.
 * One service per setting, all started at once; each exports OTLP/HTTP JSON to a receiver
 * of its own.
 */
describe('tracing settings: the OTEL_* variables', () => {
  const settings = {
    // The signal's own endpoint (a full URL) and protocol, every trace sampled, the
    // caller's context not read, the service named by its resource attributes.
    honoured: (endpoint: string) => ({
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${endpoint}/v1/traces`,
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_TRACES_SAMPLER: 'always_on',
      OTEL_PROPAGATORS: 'none',
      OTEL_RESOURCE_ATTRIBUTES: 'service.name=from-attributes,deployment.environment.name=e2e',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    }),
    // A ratio of 0 and no parent-based sampler: not even a caller's sampled trace.
    ratioZero: (endpoint: string) => ({
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_TRACES_SAMPLER: 'traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0',
    }),
    // An endpoint, but no exporter: tracing stays off.
    exporterNone: (endpoint: string) => ({
      OTEL_TRACES_EXPORTER: 'none',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    }),
  };
  type Setting = keyof typeof settings;
  const receivers = {} as Record<Setting, OtlpReceiver>;
  const servers = {} as Record<Setting, ServerProcess>;
  const closed = new Set<Setting>();
  const close = async (setting: Setting) => {
    if (closed.has(setting)) return;
    closed.add(setting);
    await servers[setting]?.close();
  };

  beforeAll(async () => {
    await Promise.all(
      (Object.keys(settings) as Setting[]).map(async (setting) => {
        receivers[setting] = new OtlpReceiver();
        const endpoint = await receivers[setting].start();
        servers[setting] = await startServerProcess(settings[setting](endpoint));
      }),
    );
  }, 120_000);
  afterAll(async () => {
    await Promise.all((Object.keys(servers) as Setting[]).map(close));
    await Promise.all(Object.values(receivers).map((receiver) => receiver.close()));
  });

  /** A traced route (any answer is traced), called from a trace its caller sampled. */
  const callFromSampledTrace = (server: ServerProcess, traceId: string) =>
    server.http
      .get('/v1/models')
      .set('traceparent', `00-${traceId}-${randomBytes(8).toString('hex')}-01`);

  it('exports to the traces endpoint, samples by OTEL_TRACES_SAMPLER, reads no caller context with OTEL_PROPAGATORS=none, and names the service by OTEL_RESOURCE_ATTRIBUTES', async () => {
    const callerTrace = randomBytes(16).toString('hex');
    const res = await callFromSampledTrace(servers.honoured, callerTrace);
    expect(res.headers.traceresponse).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);

    const receiver = receivers.honoured;
    await receiver.waitFor((span) => span.attributes['url.path'] === '/v1/models');
    const span = receiver.spans.find(
      (candidate) => candidate.attributes['url.path'] === '/v1/models',
    );
    expect(span?.traceId).not.toBe(callerTrace);
    expect(span?.parentSpanId).toBeUndefined();
    expect(span?.resource).toEqual(
      expect.objectContaining({
        'service.name': 'from-attributes',
        'deployment.environment.name': 'e2e',
      }),
    );
  });

  it('samples nothing at OTEL_TRACES_SAMPLER_ARG=0, and starts nothing with OTEL_TRACES_EXPORTER=none', async () => {
    for (const setting of ['ratioZero', 'exporterNone'] as const) {
      const res = await callFromSampledTrace(servers[setting], randomBytes(16).toString('hex'));
      expect(res.headers.traceresponse).toBeUndefined();
      // Shutting down exports whatever spans the service still holds.
      await close(setting);
      expect(receivers[setting].spans).toEqual([]);
    }
  });
});
