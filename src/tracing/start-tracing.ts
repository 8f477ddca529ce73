import { createRequire } from 'node:module';
import { tracingEnabledIn } from '../config/telemetry.config.js';

/** What stops the SDK, flushing the spans it still holds (set once tracing started). */
let stopSdk: (() => Promise<void>) | null = null;

/**
 * The instrumented packages, which ES modules import (ours ioredis) as well as CommonJS
 * (TypeORM requires pg): the instrumentations patch what `require` loads, in place, so each
 * is required here once, after the SDK started, and a later ES import gets the same,
 * patched, module. An ESM loader hook (import-in-the-middle) would do it for every import,
 * and cost about 7 % of a 1,000-question preview's CPU (ADR 0175).
 */
const PRELOADED = ['pg', 'ioredis'];

/**
 * Starts OpenTelemetry tracing when the OTEL_* variables ask for it (tracingEnabledIn),
 * before the application's modules load: main.ts awaits this, then imports the server.
 * The SDK reads the standard variables itself (exporter, endpoint, protocol, sampler,
 * service name, propagators: W3C trace context by default). Off, nothing of the SDK is
 * loaded at all. Logs stay on stdout (no OTLP log export) and no OTel metrics are kept or
 * exported (the SDK would by default): Prometheus scrapes /metrics. The HTTP server spans
 * are ours (server-spans.ts, installed by configureApp), not an instrumentation's: the
 * sampling decision comes first, and an unsampled request costs nothing more (ADR 0207).
 */
export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  if (!tracingEnabledIn(env)) return false;
  const [{ NodeSDK }, pg, ioredis] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-ioredis'),
  ]);
  const sdk = new NodeSDK({
    ...defaultServiceName(env),
    logRecordProcessors: [],
    metricReaders: [],
    // Statements and commands only within a sampled request's span: without one (an
    // unsampled request, which enters no context) they would start traces of their own.
    // Statement text only (parameters never leave the process), and a Redis command's
    // name alone: its key is the argument the default keeps, and the rate limiter's keys
    // hold emails, client addresses and device hashes.
    instrumentations: [
      new pg.PgInstrumentation({ enhancedDatabaseReporting: false, requireParentSpan: true }),
      new ioredis.IORedisInstrumentation({
        requireParentSpan: true,
        dbStatementSerializer: (command) => command,
      }),
    ],
  });
  sdk.start();
  const require = createRequire(import.meta.url);
  for (const name of PRELOADED) require(name);
  stopSdk = () => sdk.shutdown();
  return true;
}

/** Exports the spans still buffered and stops the SDK (at shutdown); nothing when off. */
export async function stopTracing(): Promise<void> {
  const stop = stopSdk;
  stopSdk = null;
  await stop?.().catch(() => undefined);
}

/** `configurator-service` unless OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES names one. */
function defaultServiceName(env: NodeJS.ProcessEnv): { serviceName?: string } {
  const named =
    env.OTEL_SERVICE_NAME || /(^|,)\s*service\.name=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? '');
  return named ? {} : { serviceName: 'configurator-service' };
}
