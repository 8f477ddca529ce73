import { register } from 'node:module';
import { tracingEnabledIn } from '../config/telemetry.config.js';

/** What stops the SDK, flushing the spans it still holds (set once tracing started). */
let stopSdk: (() => Promise<void>) | null = null;

/**
 * The instrumented packages imported from ES modules (ours: ioredis); the others are
 * required from CommonJS (Nest requires express and http, TypeORM requires pg), where
 * require hooks see them. Only these go through import-in-the-middle's loader.
 */
const ESM_HOOKED = ['ioredis', 'pg', 'express'];

/**
 * Starts OpenTelemetry tracing when the OTEL_* variables ask for it (tracingEnabledIn),
 * before the application's modules load: main.ts awaits this, then imports the server.
 * The SDK reads the standard variables itself (exporter, endpoint, protocol, sampler,
 * service name, propagators: W3C trace context by default). Off, nothing of the SDK is
 * loaded at all. Logs stay on stdout (no OTLP log export) and no OTel metrics are kept or
 * exported (the SDK would by default, and the http instrumentation would feed them on
 * every request): Prometheus scrapes /metrics.
 */
export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  if (!tracingEnabledIn(env)) return false;
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, {
    data: { include: ESM_HOOKED },
  });
  const [{ NodeSDK }, http, express, pg, ioredis] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-express'),
    import('@opentelemetry/instrumentation-pg'),
    import('@opentelemetry/instrumentation-ioredis'),
  ]);
  const sdk = new NodeSDK({
    ...defaultServiceName(env),
    logRecordProcessors: [],
    metricReaders: [],
    instrumentations: [
      new http.HttpInstrumentation({
        // Probes and scrapes every few seconds would drown the traces that matter.
        ignoreIncomingRequestHook: (req) => /^\/(health\/|metrics)/.test(req.url ?? ''),
      }),
      // The route's handler only: a span per middleware (helmet, compression, the body
      // parser…) would cost more than it tells, on every request.
      new express.ExpressInstrumentation({
        ignoreLayersType: [express.ExpressLayerType.MIDDLEWARE],
      }),
      // Statement text only (parameters never leave the process).
      new pg.PgInstrumentation({ enhancedDatabaseReporting: false }),
      new ioredis.IORedisInstrumentation(),
    ],
  });
  sdk.start();
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
