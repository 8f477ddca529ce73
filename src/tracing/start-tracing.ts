import { type ClientRequest, IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import type { Span } from '@opentelemetry/api';
import type { Request } from 'express';
import { routePattern } from '../common/http/route-pattern.js';
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
 * exported (the SDK would by default, and the http instrumentation would feed them on
 * every request): Prometheus scrapes /metrics.
 */
export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  if (!tracingEnabledIn(env)) return false;
  const [{ NodeSDK }, http, pg, ioredis] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/instrumentation-http'),
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
        applyCustomAttributesOnSpan: nameByRoute,
      }),
      // Statement text only (parameters never leave the process).
      new pg.PgInstrumentation({ enhancedDatabaseReporting: false }),
      new ioredis.IORedisInstrumentation(),
    ],
  });
  sdk.start();
  const require = createRequire(import.meta.url);
  for (const name of PRELOADED) require(name);
  stopSdk = () => sdk.shutdown();
  return true;
}

/**
 * The HTTP span named by its route (`POST /v1/carts`, `http.route`), as the metrics and
 * logs label it, when the span is recorded. In place of express's instrumentation, which
 * did work in each of the ~15 express layers of every request, sampled or not, to name it
 * (docs/adr/0175).
 */
function nameByRoute(span: Span, request: IncomingMessage | ClientRequest): void {
  // Outgoing requests (a ClientRequest) keep the instrumentation's name.
  if (!span.isRecording() || !(request instanceof IncomingMessage)) return;
  const route = routePattern(request as Request);
  span.setAttribute('http.route', route);
  span.updateName(`${request.method ?? 'GET'} ${route}`);
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
