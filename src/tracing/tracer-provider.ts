import {
  context,
  diag,
  DiagConsoleLogger,
  propagation,
  trace,
  type TextMapPropagator,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  CompositePropagator,
  diagLogLevelFromString,
  getNumberFromEnv,
  getStringFromEnv,
  getStringListFromEnv,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import {
  defaultResource,
  detectResources,
  envDetector,
  hostDetector,
  osDetector,
  processDetector,
  resourceFromAttributes,
  serviceInstanceIdDetector,
} from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  ParentBasedSampler,
  type Sampler,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';

/**
 * The OTLP exporter of each OTEL_EXPORTER_OTLP(_TRACES)_PROTOCOL, loaded only when named:
 * each exporter reads its own endpoint, headers, timeout and compression variables.
 */
const OTLP_EXPORTERS: Record<string, () => Promise<SpanExporter>> = {
  'http/protobuf': async () =>
    new (await import('@opentelemetry/exporter-trace-otlp-proto')).OTLPTraceExporter(),
  'http/json': async () =>
    new (await import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter(),
  grpc: async () =>
    new (await import('@opentelemetry/exporter-trace-otlp-grpc')).OTLPTraceExporter(),
};

/**
 * Registers the trace SDK as the global tracer provider, context manager and propagator,
 * built from the standard OTEL_* variables as the SDK's own NodeSDK reads them, and nothing
 * else of OpenTelemetry: no meter or logger provider, no exporter that is not asked for
 * (NodeSDK loads them all, and their weight cost a traced service more than its spans did;
 * docs/adr/0221). The variables' values are read by @opentelemetry/core's readers.
 */
export async function startTracerProvider(): Promise<TracerProvider> {
  const logLevel = getStringFromEnv('OTEL_LOG_LEVEL');
  if (logLevel) diag.setLogger(new DiagConsoleLogger(), diagLogLevelFromString(logLevel));
  const provider = new TracerProvider({
    resource: resourceFromEnv(),
    sampler: samplerFromEnv(),
    spanProcessors: await spanProcessorsFromEnv(),
  });
  const contextManager = new AsyncLocalStorageContextManager();
  context.setGlobalContextManager(contextManager.enable());
  const propagator = propagatorFromEnv();
  if (propagator) propagation.setGlobalPropagator(propagator);
  trace.setGlobalTracerProvider(provider);
  return provider;
}

/**
 * The SDK's defaults, the host and process, and OTEL_RESOURCE_ATTRIBUTES and
 * OTEL_SERVICE_NAME (envDetector), which name the service `configurator-service` unless
 * they name it otherwise.
 */
function resourceFromEnv() {
  return defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'configurator-service' }))
    .merge(
      detectResources({
        detectors: [
          serviceInstanceIdDetector,
          processDetector,
          hostDetector,
          osDetector,
          envDetector,
        ],
      }),
    );
}

/** OTEL_TRACES_SAMPLER and its OTEL_TRACES_SAMPLER_ARG; unset, parent-based always-on. */
function samplerFromEnv(): Sampler | undefined {
  const name = getStringFromEnv('OTEL_TRACES_SAMPLER');
  const ratio = () => {
    const value = getNumberFromEnv('OTEL_TRACES_SAMPLER_ARG');
    if (value !== undefined && value >= 0 && value <= 1) return value;
    diag.error(`OTEL_TRACES_SAMPLER_ARG must be a ratio between 0 and 1: sampling everything`);
    return 1;
  };
  switch (name) {
    case undefined:
      return undefined;
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio());
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio()) });
    default:
      diag.error(`unknown OTEL_TRACES_SAMPLER "${name}": parent-based always-on`);
      return undefined;
  }
}

/**
 * OTEL_TRACES_EXPORTER (`otlp` when unset; `console`), each exporter behind a batch
 * processor read from OTEL_BSP_*; the console one prints each span as it ends.
 */
async function spanProcessorsFromEnv(): Promise<SpanProcessor[]> {
  const names = new Set(getStringListFromEnv('OTEL_TRACES_EXPORTER') ?? []);
  if (names.size === 0) names.add('otlp');
  const processors: SpanProcessor[] = [];
  for (const name of names) {
    if (name === 'console') {
      processors.push(new SimpleSpanProcessor({ exporter: new ConsoleSpanExporter() }));
    } else if (name === 'otlp') {
      const protocol =
        getStringFromEnv('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL') ??
        getStringFromEnv('OTEL_EXPORTER_OTLP_PROTOCOL') ??
        'http/protobuf';
      const exporter = OTLP_EXPORTERS[protocol] ?? OTLP_EXPORTERS['http/protobuf'];
      if (!OTLP_EXPORTERS[protocol])
        diag.warn(`unknown OTLP protocol "${protocol}": http/protobuf`);
      processors.push(new BatchSpanProcessor({ exporter: await exporter!(), ...batchFromEnv() }));
    } else if (name !== 'none') {
      diag.warn(`unknown OTEL_TRACES_EXPORTER "${name}" (otlp, console, none)`);
    }
  }
  return processors;
}

function batchFromEnv() {
  const positive = (name: string) => {
    const value = getNumberFromEnv(name);
    return value !== undefined && value > 0 ? value : undefined;
  };
  return {
    maxQueueSize: positive('OTEL_BSP_MAX_QUEUE_SIZE'),
    maxExportBatchSize: positive('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
    scheduledDelayMillis: positive('OTEL_BSP_SCHEDULE_DELAY'),
    exportTimeoutMillis: positive('OTEL_BSP_EXPORT_TIMEOUT'),
  };
}

/** OTEL_PROPAGATORS: `tracecontext,baggage` when unset; `none`: nothing read or sent. */
function propagatorFromEnv(): TextMapPropagator | undefined {
  const names = new Set(getStringListFromEnv('OTEL_PROPAGATORS') ?? ['tracecontext', 'baggage']);
  if (names.has('none')) return undefined;
  const propagators: TextMapPropagator[] = [];
  for (const name of names) {
    if (name === 'tracecontext') propagators.push(new W3CTraceContextPropagator());
    else if (name === 'baggage') propagators.push(new W3CBaggagePropagator());
    else diag.warn(`unknown OTEL_PROPAGATORS entry "${name}" (tracecontext, baggage, none)`);
  }
  return new CompositePropagator({ propagators });
}
